import EffectScheduler

/// The stream a consumer reads when a stream made with `.effect` is the plain stream (under a
/// scheduler, with no script taking its elements over): it hands over the plain stream's
/// elements and notes each in the trace, in the consumer's cell at the step that received it
/// (`results ← "3 hits"`).
///
/// It asks the plain stream for each element from the consumer's own task, with no task or
/// suspension point of its own, so the stream keeps its semantics: the buffering policy applies
/// when the producer yields, a waiting consumer becomes ready when an element is yielded, and
/// `onTermination` runs when the consumer is cancelled (the plain stream's cancellation handler
/// is in force while it waits) or goes away (the plain stream goes with it).
enum NotedStream {
  /// `stream`, whose elements are noted in the trace as `name ← element`.
  static func noting<Element: Sendable>(_ stream: AsyncStream<Element>, as name: String, on scheduler: DeterministicScheduler) -> AsyncStream<Element> {
    AsyncStream {
      // The iterator keeps no state of its own: each is the stream's, made afresh.
      var elements = stream.makeAsyncIterator()
      guard let element = await elements.next() else { return nil }
      scheduler.noteInTrace(delivery(of: element, to: name))
      return element
    }
  }

  /// `stream`, whose elements are noted in the trace as `name ← element`.
  static func noting<Element: Sendable>(
    _ stream: AsyncThrowingStream<Element, any Error>, as name: String, on scheduler: DeterministicScheduler
  ) -> AsyncThrowingStream<Element, any Error> {
    AsyncThrowingStream {
      var elements = stream.makeAsyncIterator()
      guard let element = try await elements.next() else { return nil }
      scheduler.noteInTrace(delivery(of: element, to: name))
      return element
    }
  }

  /// `results ← "3 hits"`: the note of an element delivered, as the delivery task of a scripted
  /// stream notes it too.
  static func delivery(of element: some Sendable, to name: String) -> String {
    "\(name) ← \(String(reflecting: element))"
  }
}
