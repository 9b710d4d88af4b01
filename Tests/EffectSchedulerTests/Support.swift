import Foundation

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
