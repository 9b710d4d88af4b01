import EffectScheduler

// A stream made with `.effect` under a scheduler, with no script taking its elements over, is the
// plain stream, so that it keeps every semantics of one: the buffering policy applies when the
// producer yields, a waiting consumer becomes ready when an element is yielded, and a cancelled
// consumer still receives what the buffer held before its loop ends. Its elements are still
// noted in the trace, in the consumer's cell at the step that received each (`results ← "3 hits"`).
//
// The standard library offers no way to see an element go by, short of a stream of another kind:
// one made with `AsyncStream(unfolding:)` and reading the plain one drops the plain one's buffer
// when its consumer is cancelled, as its own cancellation handler ends it first, and a task that
// moves the elements adds steps of its own. So the plain stream is kept and its iterator's
// function changed: a stream holds one object, whose second stored property is the function every
// `next()` calls, its buffer's `next()`; it is put inside one that notes the element it returns.
// The layout is Swift 6.3's (`AsyncStream._Context`: the buffer, then that function), checked
// before anything is written: a stream whose object is laid out otherwise is left as it is, and
// its elements are not noted.

/// Notes in the trace the elements that the consumer of a plain stream receives.
enum NotedStream {
  /// `stream`, a plain stream just made, made to note each element its consumer receives as
  /// `name ← element`.
  static func noting<Element: Sendable>(_ stream: AsyncStream<Element>, as name: String, on scheduler: DeterministicScheduler) -> AsyncStream<Element> {
    guard let next = nextFunction(of: stream, as: (() async -> Element?).self, bufferInContextAt: nil) else { return stream }
    let plain = next.pointee
    next.pointee = {
      let element = await plain()
      if let element { scheduler.noteInTrace(delivery(of: element, to: name)) }
      return element
    }
    return stream
  }

  /// `stream`, a plain stream just made, made to note each element its consumer receives as
  /// `name ← element`.
  static func noting<Element: Sendable, Failure: Error>(
    _ stream: AsyncThrowingStream<Element, Failure>, as name: String, on scheduler: DeterministicScheduler
  ) -> AsyncThrowingStream<Element, Failure> {
    // Of the stream's own type, `throws(Failure)`, whose error is passed as its generic
    // declaration has it, not as `throws` passes `any Error`. The function is the buffer's
    // `next()` behind a thunk that makes its error typed, whose context holds the buffer.
    guard let next = nextFunction(of: stream, as: (() async throws(Failure) -> Element?).self, bufferInContextAt: 4) else { return stream }
    let plain = next.pointee
    next.pointee = { () async throws(Failure) -> Element? in
      let element = try await plain()
      if let element { scheduler.noteInTrace(delivery(of: element, to: name)) }
      return element
    }
    return stream
  }

  /// `results ← "3 hits"`: the note of an element delivered, as the delivery task of a scripted
  /// stream notes it too.
  static func delivery(of element: some Sendable, to name: String) -> String {
    "\(name) ← \(String(reflecting: element))"
  }

  /// Where the object of the plain stream `stream` keeps the function its iterator's `next()`
  /// calls, of type `Next`; `nil` where the stream is laid out otherwise than this code expects.
  /// The function's context is the stream's buffer itself, or, with `bufferInContextAt`, holds it
  /// in that word.
  private static func nextFunction<Stream, Next>(
    of stream: Stream, as next: Next.Type, bufferInContextAt index: Int?
  ) -> UnsafeMutablePointer<Next>? {
    let word = MemoryLayout<UInt>.size
    guard MemoryLayout<Stream>.size == word, MemoryLayout<Next>.size == 2 * word else { return nil }
    // The stream is one reference, which `stream` keeps alive while this reads it.
    let object = unsafeBitCast(stream, to: UnsafeMutableRawPointer.self)
    let words = object.assumingMemoryBound(to: UInt.self)
    // After the object's header: the buffer, then the function and its context.
    let buffer = words[2]
    guard buffer != 0, let context = UnsafePointer<UInt>(bitPattern: words[4]) else { return nil }
    guard let index else { return words[4] == buffer ? (object + 3 * word).assumingMemoryBound(to: Next.self) : nil }
    return context[index] == buffer ? (object + 3 * word).assumingMemoryBound(to: Next.self) : nil
  }
}
