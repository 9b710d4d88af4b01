import BugCatalogue
import Explore
import ExploreTesting
import Testing

@Suite("PCT over the classic-bug catalogue")
struct PCTCatalogueTests {
  /// A thousand PCT runs of depth 3 are enough for every bug of the catalogue with the default
  /// seed, whichever way its tasks are made. The bug must be found by a PCT run: the probe's
  /// first-in-first-out run finds several of them too, but that says nothing about PCT. While
  /// actors' jobs always went first, no PCT run could find the check before an actor hop.
  @Test("PCT of depth 3 finds every bug within 1,000 schedules", arguments: ClassicBug.all, Spawn.allCases)
  func findsEveryBug(_ bug: ClassicBug, spawn: Spawn) async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.pct(depth: 3, schedules: 1_000), configuration: bug.configuration, bug.buggy(spawning: spawn))
    }
    let kind = FailureKind(failure)
    #expect(kind == .invariantViolated || kind == .deadlock, "\(failure)")
    let number = try #require(failure.scheduleNumber, "only the first-in-first-out run found it:\n\(failure)")
    #expect(failure.seed != nil)
    print("PCT depth 3 found \"\(bug)\" (\(spawn)) at schedule \(number)")
  }

  /// The probe's first-in-first-out run takes turns at every suspension point, while PCT of depth
  /// 1 never switches away from a task that can go on: only the probe loses the update.
  @Test("a bug only the first-in-first-out run finds is reported as found by it, with no PCT schedule or seed")
  func probeFailureIsReportedAsSuch() async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.pct(depth: 1, schedules: 50), configuration: ClassicBug.lostUpdate.configuration, ClassicBug.lostUpdate.buggy)
    }
    #expect(FailureKind(failure) == .invariantViolated)
    #expect(failure.scheduleNumber == nil)
    #expect(failure.seed == nil)
    #expect(failure.strategy.hasPrefix("PCT depth 1 (50 schedules, none failed), found by the first-in-first-out run before any PCT run"))
    let report = failure.description
    #expect(report.contains("strategy: PCT depth 1 (50 schedules, none failed), found by the first-in-first-out run before any PCT run"))
    #expect(!report.contains("schedule #"))
    #expect(!report.contains("seed"))
    // The schedule it reports still replays the failure.
    let schedule = try #require(failure.schedule)
    let replayed = try await requireFailure(ExplorationFailure.self) {
      try await explore(.replay(schedule), ClassicBug.lostUpdate.buggy)
    }
    #expect(replayed.summary == failure.summary)
  }
}
