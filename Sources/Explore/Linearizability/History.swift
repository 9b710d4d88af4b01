import Synchronization

/// What the calls of one run of a scenario returned, and when each began and ended.
package struct History: Sendable {
  /// One call's record: its results and the ticks of the run's clock at its start and end.
  package struct Entry: Sendable {
    package var began = 0
    package var ended = Int.max
    package var result: OperationResult?

    /// A call that began and ended at these ticks and returned `result`.
    package init(began: Int, ended: Int, result: OperationResult?) {
      self.began = began
      self.ended = ended
      self.result = result
    }

    init() {}
  }

  package var entries: [Entry]

  /// A history of these calls.
  package init(entries: [Entry]) { self.entries = entries }
}

/// Records the calls of one run as they happen. The run's jobs run one at a time, so a counter
/// read at each call's start and end orders them as they happened.
final class CallLog: Sendable {
  private let state: Mutex<(tick: Int, history: History)>

  init(calls: Int) {
    state = Mutex((0, History(entries: Array(repeating: History.Entry(), count: calls))))
  }

  /// Makes call `index` with `call`, recording when it began and ended and what it returned.
  func record(_ index: Int, _ call: () async -> OperationResult) async {
    state.withLock { state in
      state.tick += 1
      state.history.entries[index].began = state.tick
    }
    let result = await call()
    state.withLock { state in
      state.tick += 1
      state.history.entries[index].ended = state.tick
      state.history.entries[index].result = result
    }
  }

  var history: History { state.withLock { $0.history } }
}

/// The history of the run that ended last, handed from the run's body to the check made after it.
final class LatestHistory: Sendable {
  private let latest = Mutex<History?>(nil)

  func store(_ history: History) { latest.withLock { $0 = history } }

  /// The history stored since the last take, if any.
  func take() -> History? { latest.withLock { latest in defer { latest = nil }; return latest } }
}
