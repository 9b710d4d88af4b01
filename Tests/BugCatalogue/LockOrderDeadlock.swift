import Effects

/// A mutex for async code: `lock()` suspends on a continuation until `unlock()` hands it over.
/// The catalogue's locks and forks, and the Benchmarks' philosophers.
public actor AsyncLock {
  private var isLocked = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// Creates an unlocked lock.
  public init() {}

  /// Waits until the lock is free and takes it.
  public func lock() async {
    guard isLocked else {
      isLocked = true
      return
    }
    await withCheckedContinuation { waiters.append($0) }
  }

  /// Hands the lock to the oldest waiter, or frees it.
  public func unlock() {
    if waiters.isEmpty {
      isLocked = false
    } else {
      waiters.removeFirst().resume()
    }
  }
}

/// Moves money between two accounts guarded by one lock each.
private func transfer(locking first: AsyncLock, then second: AsyncLock) async {
  await first.lock()
  await Task.yield()
  await second.lock()
  await second.unlock()
  await first.unlock()
}

extension ClassicBug {
  /// Two transfers that take two locks in opposite orders: a deadlock.
  public static let lockOrderDeadlock = ClassicBug(
    name: "deadlock through two continuations (lock order)",
    buggy: { spawn in
      let checking = AsyncLock()
      let savings = AsyncLock()
      let a = spawn(name: "A") { await transfer(locking: checking, then: savings) }
      let b = spawn(name: "B") { await transfer(locking: savings, then: checking) }
      _ = await (a.value, b.value)
    },
    fixed: { spawn in
      let checking = AsyncLock()
      let savings = AsyncLock()
      let a = spawn(name: "A") { await transfer(locking: checking, then: savings) }
      let b = spawn(name: "B") { await transfer(locking: checking, then: savings) }
      _ = await (a.value, b.value)
    },
    randomBudget: 20, pctBudget: 20, configuration: .deadlocking)
}
