import BugCatalogue
import EffectScheduler
import Explore
import ExploreTesting
import Testing

/// What kind of failure a classic bug shows, so a bug found with plain `Task {}` can be compared
/// with the same bug found with `Task.effect`.
enum FailureKind: Equatable, CustomStringConvertible {
  /// The program's own check failed: the body threw an ``InvariantViolation``.
  case invariantViolated
  /// Every unfinished task waits on another task of the program.
  case deadlock
  /// Anything else: nondeterminism, work from outside, a stall, a livelock. Carries the summary.
  case other(String)

  init(_ failure: ExplorationFailure) {
    switch failure.underlyingError {
    case is InvariantViolation:
      self = .invariantViolated
    case let error as SchedulerError:
      if case .deadlock = error.reason { self = .deadlock } else { self = .other(failure.summary) }
    default:
      self = .other(failure.summary)
    }
  }

  var description: String {
    switch self {
    case .invariantViolated: "the invariant was violated"
    case .deadlock: "deadlock"
    case .other(let summary): summary
    }
  }
}

@Suite("Classic bugs, with tasks made by Task.effect or by plain Task {}")
struct ClassicBugsSpawnTests {
  @Test("exhaustive search finds the bug, with the same kind of failure either way, and replays it",
    arguments: ClassicBug.all, Spawn.allCases)
  func findsBug(_ bug: ClassicBug, spawn: Spawn) async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(bug.exhaustive, configuration: bug.configuration, bug.buggy(spawning: spawn))
    }
    // However the tasks are made, what is found is the bug itself.
    let kind = FailureKind(failure)
    #expect(kind == .invariantViolated || kind == .deadlock, "\(failure)")
    if spawn != .effect {
      let reference = try await requireFailure(ExplorationFailure.self) {
        try await explore(bug.exhaustive, configuration: bug.configuration, bug.buggy(spawning: .effect))
      }
      #expect(kind == FailureKind(reference), "\(failure)")
    }

    let schedule = try #require(failure.schedule)
    let replayed = try await requireFailure(ExplorationFailure.self) {
      try await explore(.replay(schedule.description), configuration: bug.configuration, bug.buggy(spawning: spawn))
    }
    #expect(replayed.summary == failure.summary)
    #expect(replayed.trace == failure.trace)
  }

  @Test("the fixed twin passes every schedule (up to the bug's limit, if any), however its tasks are made", arguments: ClassicBug.all, Spawn.allCases)
  func fixedTwinPasses(_ bug: ClassicBug, spawn: Spawn) async throws {
    let summary = try await explore(bug.exhaustive, configuration: bug.configuration, bug.fixed(spawning: spawn))
    #expect(bug.searchedEnough(summary))
  }
}

@Suite("Catalogue fixed twins: plain tasks get exactly the interleavings of Task.effect tasks")
struct CatalogueSpawnCountTests {
  @Test("a fixed twin searched in full has as many schedules with Task {} as with Task.effect",
    arguments: ClassicBug.all.filter { $0.exhaustiveLimit == nil })
  func equalCounts(_ bug: ClassicBug) async throws {
    try await PlainTaskHopTests.expectSameSchedules(bug.fixed(spawning:), configuration: bug.configuration)
  }
}
