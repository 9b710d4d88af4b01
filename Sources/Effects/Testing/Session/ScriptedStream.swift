import Synchronization

/// A stream made with `.effect` whose elements the test script expects: the delivery task hands
/// each element to the script, which delivers it, holds it, or ends the stream in its place.
final class ScriptedStream<Element: Sendable>: ScriptedStreamControl {
  private struct State {
    /// Elements handed to the script and neither delivered nor dropped.
    var undelivered = 0
    /// How the producer ended the stream, once it has: `.some(nil)` when it finished.
    var sourceEnding: (any Error)??
    var ended = false
  }

  let name: String
  private let outlet: StreamOutlet<Element>
  private let session: TestSession
  private let state = Mutex(State())

  init(_ name: String, outlet: StreamOutlet<Element>, session: TestSession) {
    self.name = name
    self.outlet = outlet
    self.session = session
  }

  var canFail: Bool { outlet.canFail }

  /// Hands an element the producer yielded to the script; after the stream has ended it goes
  /// nowhere.
  func hand(_ element: Element) {
    let ended = state.withLock { state in
      if !state.ended { state.undelivered += 1 }
      return state.ended
    }
    guard !ended else { return }
    session.submit(PendingEffect(element: HeldElement(stream: self, value: element) { self.deliver(element) }))
  }

  /// Records how the producer ended the stream; the consumer sees the end once every element
  /// before it has been delivered.
  func sourceDidEnd(throwing error: (any Error)?) {
    let endsNow = state.withLock { state in
      state.sourceEnding = .some(error)
      return state.undelivered == 0 && !state.ended
    }
    if endsNow { end(throwing: error) }
  }

  private func deliver(_ element: Element) {
    let (delivers, ending) = state.withLock { state in
      state.undelivered -= 1
      let ending = state.undelivered == 0 && !state.ended ? state.sourceEnding : nil
      return (!state.ended, ending)
    }
    if delivers { outlet.yield(element) }
    if let ending { end(throwing: ending) }
  }

  func end(throwing error: (any Error)?) {
    state.withLock { $0.ended = true }
    outlet.finish(error)
  }
}
