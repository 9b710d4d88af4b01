import Effects

/// Two accounts, each behind its own lock, and a transfer that holds both.
private final class Ledger: @unchecked Sendable {
  let locks = [EffectLock(), EffectLock()]
  var balances = [10, 10]

  /// Moves one unit from account `from` to account `to`, taking the locks in the order the
  /// transfer names them, or, `ordered`, lower account first.
  func transfer(from: Int, to: Int, ordered: Bool) {
    let (first, second) = ordered ? (min(from, to), max(from, to)) : (from, to)
    locks[first].withLock {
      locks[second].withLock {
        balances[from] -= 1
        balances[to] += 1
      }
    }
  }
}

/// Two transfers in opposite directions at once.
private func opposingTransfers(_ spawn: Spawn, ordered: Bool) async throws {
  let ledger = Ledger()
  let there = spawn(name: "0→1") { ledger.transfer(from: 0, to: 1, ordered: ordered) }
  let back = spawn(name: "1→0") { ledger.transfer(from: 1, to: 0, ordered: ordered) }
  _ = await (there.value, back.value)
  let total = ledger.locks[0].withLock { ledger.locks[1].withLock { ledger.balances.reduce(0, +) } }
  try check(total == 20, "money appeared or vanished: \(total)")
}

extension ClassicBug {
  /// Two transfers that each take two locks in synchronous code, in opposite orders: each may
  /// take its first lock before the other takes its second, and neither can go on. No await
  /// anywhere, so only the locks' scheduling points show it. The fix takes the locks in one
  /// global order.
  public static let synchronousLockOrderDeadlock = ClassicBug(
    name: "lock-order deadlock in synchronous code",
    buggy: { spawn in try await opposingTransfers(spawn, ordered: false) },
    fixed: { spawn in try await opposingTransfers(spawn, ordered: true) },
    randomBudget: 50, pctBudget: 50, configuration: .deadlocking)
}
