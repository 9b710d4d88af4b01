import BugCatalogue
import EffectScheduler
import Effects
import Explore
import ExploreTesting
import Synchronization
import Testing

/// With the default configuration (a 1 s `outsideWorldTimeout`, the determinism check on), a
/// search that finds a deadlock through continuations no thread of the run can end reports it
/// within milliseconds: each stuck run (the failing one, its replays) takes a glance of 2 ms. A
/// grace of 250 ms for each stuck run would put a floor of 500 ms under every such search, which
/// no load can lower; load only raises a time, so the bound is on the fastest of several searches,
/// which one quick search meets however busy the machine is with other tests. The bound sits just
/// under that floor: under the whole suite's load on two cores the fastest of 40 once took 424 ms.
@Suite("Deadlocks through continuations are reported at once when nothing outside the run can act")
struct DeadlockLatencyTests {
  static let bound = Duration.milliseconds(480)

  #if os(Linux) && _pointerBitWidth(_64)
    @Test("two tasks each awaiting a continuation nobody resumes are reported at once by explore(.exhaustive)")
    func forgottenContinuationsUnderExplore() async throws {
      let fastest = try await fastestTime(of: 40, stoppingBelow: Self.bound) {
        try await Self.exploreExpectingDeadlock { try await Self.twoForgottenContinuations() }
      }
      #expect(fastest < Self.bound, "fastest time to the report \(fastest)")
    }

    @Test("two tasks taking two locks held through continuations in opposite orders are reported at once by explore(.exhaustive)")
    func lockOrderThroughContinuationsUnderExplore() async throws {
      let fastest = try await fastestTime(of: 40, stoppingBelow: Self.bound) {
        try await Self.exploreExpectingDeadlock { try await ClassicBug.lockOrderDeadlock.buggy() }
      }
      #expect(fastest < Self.bound, "fastest time to the report \(fastest)")
    }

    /// Tasks paused at drop-in locks wait on the tasks holding them, which nothing outside can
    /// change: such a deadlock is reported with no glance at all, and stays so.
    @Test("two tasks taking two EffectLocks in opposite orders are reported at once by explore(.exhaustive)")
    func effectLockOrderUnderExplore() async throws {
      let fastest = try await fastestTime(of: 40, stoppingBelow: Self.bound) {
        try await Self.exploreExpectingDeadlock { try await ClassicBug.synchronousLockOrderDeadlock.buggy() }
      }
      #expect(fastest < Self.bound, "fastest time to the report \(fastest)")
    }
  #endif

  /// Two tasks that each park on a continuation which nothing ever resumes.
  static func twoForgottenContinuations() async throws {
    let parked = Parked()
    let a = Task.effect(name: "A") { await withCheckedContinuation { parked.keep($0) } }
    let b = Task.effect(name: "B") { await withCheckedContinuation { parked.keep($0) } }
    _ = await (a.value, b.value)
  }

  /// Explores `program` with the default configuration but for progress lines, requiring a
  /// deadlock.
  static func exploreExpectingDeadlock(_ program: @escaping @Sendable () async throws -> Void) async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: ExploreConfiguration(progressInterval: nil), program)
    }
    #expect(failure.summary.hasPrefix("deadlock"), "\(failure.summary)")
  }
}

/// The shortest of the times `body` takes over at most `count` calls, which stop once one took
/// less than `bound`: a suite running beside long explorations may starve a few calls, not forty.
private func fastestTime(of count: Int, stoppingBelow bound: Duration, _ body: () async throws -> Void) async throws -> Duration {
  let clock = ContinuousClock()
  var fastest = Duration.seconds(Int64.max)
  for _ in 0..<count where fastest >= bound {
    let start = clock.now
    try await body()
    fastest = min(fastest, clock.now - start)
  }
  return fastest
}

/// Continuations kept, and never resumed.
private final class Parked: Sendable {
  private let continuations = Mutex<[CheckedContinuation<Void, Never>]>([])

  func keep(_ continuation: CheckedContinuation<Void, Never>) {
    continuations.withLock { $0.append(continuation) }
  }
}
