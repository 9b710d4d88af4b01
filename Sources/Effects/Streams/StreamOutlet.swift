/// The end of a stream made with `.effect` where its consumer reads: the continuation of the
/// stream handed to the program, seen the same way for `AsyncStream` and `AsyncThrowingStream`.
struct StreamOutlet<Element: Sendable>: Sendable {
  /// Puts an element where the consumer reads it.
  let yield: @Sendable (Element) -> Void
  /// Ends the stream: with the error, if it can fail and there is one; otherwise it finishes.
  let finish: @Sendable ((any Error)?) -> Void
  /// Whether the stream can end with an error: whether it is an `AsyncThrowingStream`.
  let canFail: Bool
}

extension StreamOutlet {
  init(_ continuation: AsyncStream<Element>.Continuation) {
    yield = { continuation.yield($0) }
    finish = { _ in continuation.finish() }
    canFail = false
  }

  init(_ continuation: AsyncThrowingStream<Element, any Error>.Continuation) {
    yield = { continuation.yield($0) }
    finish = { continuation.finish(throwing: $0) }
    canFail = true
  }
}
