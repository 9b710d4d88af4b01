/// An element that a stream handed to the test script, held until the script delivers it or
/// ends the stream in its place.
final class HeldElement: Sendable {
  /// The stream it belongs to.
  let stream: any ScriptedStreamControl
  let value: any Sendable
  /// Puts the element where the consumer reads it. Called on the scheduler's thread, or once the
  /// program has ended.
  let deliver: @Sendable () -> Void

  init(stream: any ScriptedStreamControl, value: any Sendable, deliver: @escaping @Sendable () -> Void) {
    self.stream = stream
    self.value = value
    self.deliver = deliver
  }

  /// `ticks ← 3`, as the trace notes it.
  var description: String { "\(stream.name) ← \(String(reflecting: value))" }

  /// The failure of a script that did not take it.
  var unexpected: EffectTestFailure.Problem {
    .unexpectedElement(stream: stream.name, element: String(reflecting: value))
  }
}

/// The type-erased view of a ``ScriptedStream`` that the session needs.
protocol ScriptedStreamControl: AnyObject, Sendable {
  /// The stream's name, as the program gave it.
  var name: String { get }
  /// Whether the stream can end with an error.
  var canFail: Bool { get }
  /// Ends the stream where the consumer reads it, with `error` if there is one, and drops what
  /// the producer yields from then on.
  func end(throwing error: (any Error)?)
}
