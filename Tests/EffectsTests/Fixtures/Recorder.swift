import Synchronization

/// Lines a handler saw, in order; safe to share between tasks.
final class Recorder: Sendable {
  private let recorded = Mutex<[String]>([])

  func append(_ line: String) {
    recorded.withLock { $0.append(line) }
  }

  var lines: [String] { recorded.withLock { $0 } }
}
