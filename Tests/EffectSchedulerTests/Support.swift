import EffectScheduler
import Foundation
import Testing

/// A lock for test fixtures.
final class NSLockLike: @unchecked Sendable {
  private let lock = NSLock()
  func withLock<T>(_ body: () -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }
}

extension Thread {
  /// Runs `body` on a new thread, after `delay`.
  static func detach(after delay: Duration = .zero, _ body: @escaping @Sendable () -> Void) {
    Thread {
      let (seconds, attoseconds) = delay.components
      Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
      body()
    }.start()
  }
}

/// Runs `twoDeposits` (two deposits of 10 and 20 that may lose one another) under 40 seeds, and
/// checks that some schedule lost an update, some kept both, and each comes back when replayed.
/// `check` sees every execution.
func expectLostUpdateDependsOnSchedule(
  _ twoDeposits: @escaping @Sendable () async -> Int,
  checking check: (Execution<Int>) -> Void = { _ in }
) async throws {
  var balances: [Int: Schedule] = [:]
  for seed: UInt64 in 0..<40 {
    let execution = try await DeterministicScheduler.run(strategy: .random(seed: seed), operation: twoDeposits)
    check(execution)
    balances[execution.value] = execution.schedule
  }
  #expect(Set(balances.keys).isSubset(of: [10, 20, 30]))
  let lost = try #require(balances.first { $0.key != 30 }, "no schedule lost an update")
  let kept = try #require(balances[30], "no schedule kept both updates")
  let replayedLost = try await DeterministicScheduler.run(strategy: .replay(lost.value), operation: twoDeposits)
  let replayedKept = try await DeterministicScheduler.run(strategy: .replay(kept), operation: twoDeposits)
  #expect(replayedLost.value == lost.key)
  #expect(replayedKept.value == 30)
}
