import Synchronization

/// What a task created under a test script waits behind before its operation starts, until the
/// task is enqueued.
final class TaskGate: Sendable {
  private struct State {
    var isOpen: Bool
    var waiter: UnsafeContinuation<Void, Never>?
  }

  private let state: Mutex<State>

  init(isOpen: Bool) {
    state = Mutex(State(isOpen: isOpen))
  }

  /// Suspends until the gate opens.
  func pass() async {
    // Most gates open at once (`.automaticallyEnqueue`): no continuation for them.
    if state.withLock({ $0.isOpen }) { return }
    await withUnsafeContinuation { continuation in
      let isOpen = state.withLock { state in
        if !state.isOpen { state.waiter = continuation }
        return state.isOpen
      }
      if isOpen { continuation.resume() }
    }
  }

  /// Opens the gate: a task waiting behind it gets its next step queued.
  func open() {
    let waiter = state.withLock { state in
      state.isOpen = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }
}
