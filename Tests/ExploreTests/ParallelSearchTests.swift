import BugCatalogue
import Explore
import ExploreTesting
import Testing

// One case at a time: each already keeps several threads busy.
@Suite("Exhaustive search on several threads", .serialized)
struct ParallelSearchTests {
  static func configuration(searchers: Int) -> ExploreConfiguration {
    var configuration = ExploreConfiguration(searchers: searchers)
    configuration.checksDeterminism = false
    return configuration
  }

  @Test(
    "split among threads, every schedule still runs exactly once",
    arguments: [(2, 2, 2, 6), (3, 2, 3, 90), (3, 3, 2, 1680), (3, 3, 4, 1680)])
  func multinomialCount(tasks: Int, segments: Int, searchers: Int, expected: Int) async throws {
    let summary = try await explore(
      .exhaustive, configuration: Self.configuration(searchers: searchers),
      ExhaustiveSearchTests.independent(tasks: tasks, segments: segments))
    #expect(summary.schedules == expected)
    #expect(summary.distinctTraces == expected)
    #expect(summary.exploredEverySchedule)
  }

  @Test("a program with one schedule ends even though there is nothing to split")
  func singleSchedule() async throws {
    let summary = try await explore(.exhaustive, configuration: Self.configuration(searchers: 3)) {}
    #expect(summary.schedules == 1)
    #expect(summary.exploredEverySchedule)
  }

  @Test("the schedule limit holds across threads")
  func limit() async throws {
    let summary = try await explore(
      .exhaustive(maxSchedules: 100), configuration: Self.configuration(searchers: 2),
      ExhaustiveSearchTests.independent(tasks: 3, segments: 3))
    #expect(summary.schedules == 100)
    #expect(summary.distinctTraces == 100)
    #expect(!summary.exploredEverySchedule)
  }

  @Test("it finds each classic bug, and the reported schedule replays the failure", arguments: ClassicBug.all)
  func findsBug(_ bug: ClassicBug) async throws {
    var configuration = bug.configuration
    configuration.searchers = 2
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(bug.exhaustive, configuration: configuration, bug.buggy)
    }
    let schedule = try #require(failure.schedule)
    let replayed = try await requireFailure(ExplorationFailure.self) {
      try await explore(.replay(schedule.description), configuration: bug.configuration, bug.buggy)
    }
    #expect(replayed.schedule == schedule)
  }

  @Test("each fixed twin passes every schedule (up to the bug's limit, if any)", arguments: ClassicBug.all)
  func fixedTwinPasses(_ bug: ClassicBug) async throws {
    var configuration = bug.configuration
    configuration.searchers = 2
    let summary = try await explore(bug.exhaustive, configuration: configuration, bug.fixed)
    #expect(bug.searchedEnough(summary))
  }
}
