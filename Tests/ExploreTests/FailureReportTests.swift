import BugCatalogue
import EffectScheduler
import Effects
@testable import Explore
import ExploreTesting
import Synchronization
import Testing

/// A flag shared without an actor, so reading and writing it are not suspension points.
private final class Flag: Sendable {
  private let state = Mutex(false)
  var isSet: Bool { state.withLock { $0 } }
  func set(_ value: Bool) { state.withLock { $0 = value } }
}

@Suite("Failure report and replay")
struct FailureReportTests {
  @Test("the report names the strategy, schedule, trace and a one-line replay")
  func reportContents() async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.random(schedules: 50, seed: 3), twoDeposits)
    }
    let report = failure.description
    let schedule = try #require(failure.schedule)
    #expect(report.contains("FailureReportTests.swift:"))
    #expect(report.contains("the balance is"))
    #expect(report.contains("strategy: random (50 schedules, seed 3)"))
    #expect(report.contains("schedule #"))
    #expect(report.contains("seed:"))
    #expect(report.contains("schedule: \(schedule)"))
    #expect(report.contains("#1 Alice"))
    #expect(report.contains("#2 Bob"))
    #expect(report.contains("try await explore(.replay(\"\(schedule)\"))"))
    #expect(report.contains("EXPLORE_REPLAY='ExploreTests/FailureReportTests.swift:"))
  }

  @Test("pasting the schedule into .replay reproduces the failure and its trace")
  func replayReproduces() async throws {
    let found = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, twoDeposits)
    }
    let schedule = try #require(found.schedule)
    let replayed = try await requireFailure(ExplorationFailure.self) {
      try await explore(.replay(schedule.description), twoDeposits)
    }
    #expect(replayed.trace == found.trace)
    #expect(replayed.summary == found.summary)
  }

  @Test("the seed in a report replays the run that found the bug")
  func seedReplays() async throws {
    var configuration = ExploreConfiguration()
    configuration.minimizationBudget = 0
    let found = try await requireFailure(ExplorationFailure.self) {
      try await explore(.random(schedules: 50, seed: 77), configuration: configuration, twoDeposits)
    }
    let seed = try #require(found.seed)
    let again = try await requireFailure(ExplorationFailure.self) {
      try await explore(.random(schedules: 1, seed: seed), configuration: configuration, twoDeposits)
    }
    #expect(again.schedule == found.schedule)
    #expect(again.trace == found.trace)
  }

  @Test("a corrupted replay string is a clear error")
  func corruptedReplay() async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.replay("s1:0.1.banana"), twoDeposits)
    }
    #expect(failure.summary.contains("not a schedule"))
    #expect(failure.summary.contains("banana"))
  }

  @Test("a replay the program no longer fits says at which step it diverged")
  func divergentReplay() async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.replay("s1:0.7"), twoDeposits)
    }
    #expect(failure.summary.contains("diverged at step 1"))
    #expect(failure.summary.contains("task #7"))
  }

  @Test("EXPLORE_REPLAY applies everywhere, or only at the call it names")
  func replayEnvironment() {
    let schedule = "s1:0.1.2"
    #expect(ReplayRequest.schedule(at: "Tests/A.swift:3", environment: [:]) == nil)
    #expect(ReplayRequest.schedule(at: "Tests/A.swift:3", environment: ["EXPLORE_REPLAY": schedule]) == schedule)
    #expect(ReplayRequest.schedule(at: "Tests/A.swift:3", environment: ["EXPLORE_REPLAY": "Tests/A.swift:3=\(schedule)"]) == schedule)
    #expect(ReplayRequest.schedule(at: "Tests/B.swift:9", environment: ["EXPLORE_REPLAY": "Tests/A.swift:3=\(schedule)"]) == nil)
  }

  @Test("EXPLORE_REPLAY's place may leave out the module or folders; a wrong line in the right file is a warning, not silence")
  func replayPlaces() {
    let schedule = "s1:0.1.2"
    let path = "/work/Tests/ExploreTests/A.swift"
    func replay(_ place: String, at location: String = "ExploreTests/A.swift:3") -> String? {
      ReplayRequest.schedule(at: location, filePath: path, environment: ["EXPLORE_REPLAY": "\(place)=\(schedule)"])
    }
    #expect(replay("A.swift:3") == schedule)
    #expect(replay("Tests/ExploreTests/A.swift:3") == schedule)
    #expect(replay("ExploreTests/A.swift:3") == schedule)
    #expect(replay("xA.swift:3") == nil)
    #expect(replay("A.swift:4") == nil)
    #expect(replay("B.swift:3") == nil)
    let environment = ["EXPLORE_REPLAY": "A.swift:40=\(schedule)"]
    let warning = ReplayRequest.misplacement(of: "EXPLORE_REPLAY", at: "ExploreTests/A.swift:3", filePath: path, environment: environment)
    #expect(warning?.contains("asks for a replay at A.swift:40, but the call in that file is at line 3") == true, "\(warning ?? "none")")
    #expect(ReplayRequest.misplacement(of: "EXPLORE_REPLAY", at: "ExploreTests/B.swift:3", filePath: "/w/B.swift", environment: environment) == nil)
    #expect(ReplayRequest.misplacement(of: "EXPLORE_REPLAY", at: "ExploreTests/A.swift:40", filePath: path, environment: environment) == nil)
  }

  @Test("preemption-bounded search reports a failing schedule with the fewest preemptions")
  func fewestPreemptions() async throws {
    // The checker only fails if it runs between the writer's two segments, while the writer
    // could have gone on: one preemption.
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.preemptionBounded(2)) {
        let flag = Flag()
        let writer = Task.effect(name: "writer") {
          flag.set(true)
          await Task.yield()
          flag.set(false)
        }
        let checker = Task.effect(name: "checker") {
          try check(!flag.isSet, "the checker saw the writer half done")
        }
        await writer.value
        try await checker.value
      }
    }
    #expect(failure.preemptions?.reported == 1)
    #expect(failure.description.contains("preemptions: 1"))
    #expect(failure.summary.contains("half done"))
  }

  @Test("a failure found by random search is shrunk to fewer preemptions")
  func minimizesRandomFailure() async throws {
    let unminimized = try await requireFailure(ExplorationFailure.self) {
      var configuration = ExploreConfiguration()
      configuration.minimizationBudget = 0
      try await explore(.random(schedules: 200, seed: 12), configuration: configuration, twoDeposits)
    }
    let minimized = try await requireFailure(ExplorationFailure.self) {
      try await explore(.random(schedules: 200, seed: 12), twoDeposits)
    }
    let found = try #require(unminimized.preemptions?.reported)
    let reported = try #require(minimized.preemptions?.reported)
    #expect(reported <= found)
    #expect(reported <= 1)
    #expect(minimized.seed == unminimized.seed)
  }
}
