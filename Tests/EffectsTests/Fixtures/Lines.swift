import Synchronization

/// Input lines a handler hands out one at a time, then `nil`.
final class Lines: Sendable {
  private let remaining: Mutex<[String]>

  init(_ lines: [String]) {
    remaining = Mutex(lines)
  }

  func next() -> String? {
    remaining.withLock { $0.isEmpty ? nil : $0.removeFirst() }
  }
}
