import BugCatalogue
import Explore
import ExploreTesting
import Testing

@Suite("Classic schedule-dependent bugs")
struct ClassicBugsTests {
  @Test("exhaustive search finds the bug", arguments: ClassicBug.all)
  func exhaustiveFindsBug(_ bug: ClassicBug) async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(bug.exhaustive, configuration: bug.configuration, bug.buggy)
    }
    #expect(failure.schedule != nil)
    #expect(failure.trace != nil)
  }

  @Test("the fixed twin passes every schedule (up to the bug's limit, if any)", arguments: ClassicBug.all)
  func fixedTwinPasses(_ bug: ClassicBug) async throws {
    let summary = try await explore(bug.exhaustive, configuration: bug.configuration, bug.fixed)
    #expect(bug.searchedEnough(summary))
  }

  @Test("random search finds the bug within its budget", arguments: ClassicBug.all)
  func randomFindsBug(_ bug: ClassicBug) async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.random(schedules: bug.randomBudget), configuration: bug.configuration, bug.buggy)
    }
    #expect(failure.seed != nil)
    print("random found \"\(bug)\" at schedule \(failure.scheduleNumber ?? 0) of \(bug.randomBudget)")
  }

  /// Bound by bound: the dining philosophers deadlock with one preemption (the last philosopher
  /// reaches for the first's fork, and each blocked philosopher frees the choice of the next), met
  /// among the schedules with one before the many with two.
  @Test("a search of every schedule with at most two preemptions finds the bug", arguments: ClassicBug.all)
  func preemptionBoundedFindsBug(_ bug: ClassicBug) async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.preemptionBounded(2), configuration: bug.configuration, bug.buggy)
    }
    #expect(failure.schedule != nil)
  }

  @Test("PCT finds the bug within its budget", arguments: ClassicBug.all)
  func pctFindsBug(_ bug: ClassicBug) async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.pct(depth: 3, schedules: bug.pctBudget), configuration: bug.configuration, bug.buggy)
    }
    #expect(failure.seed != nil)
    #expect(failure.scheduleNumber != nil, "only the probe run found it")
    print("PCT found \"\(bug)\" at schedule \(failure.scheduleNumber ?? 0) of \(bug.pctBudget)")
  }
}
