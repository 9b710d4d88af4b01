import Synchronization

/// Values gathered across the runs of one exploration, such as each run's outcome.
final class Collected<Value: Hashable & Sendable>: Sendable {
  private let values = Mutex<Set<Value>>([])

  func add(_ value: Value) { _ = values.withLock { $0.insert(value) } }

  var all: Set<Value> { values.withLock { $0 } }
}
