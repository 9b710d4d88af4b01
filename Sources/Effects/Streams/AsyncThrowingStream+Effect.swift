import EffectScheduler

extension AsyncThrowingStream where Element: Sendable, Failure == any Error {
  /// Creates a throwing stream exactly as `AsyncThrowingStream(_:bufferingPolicy:_:)` does,
  /// except that under `withTestHandler(streamHandling: .expect)` the script takes its elements
  /// over, as with `AsyncStream.effect(_:of:bufferingPolicy:_:)`; otherwise it is a plain stream.
  ///
  /// ```swift
  /// let lines = AsyncThrowingStream.effect("lines", of: String.self) { continuation in
  ///   continuation.yield("Hello")
  ///   continuation.finish(throwing: Disconnected())
  /// }
  /// for try await line in lines { print(line) }
  /// ```
  ///
  /// An error the producer finishes with reaches the consumer after the elements before it.
  @inlinable
  public static func effect(
    _ name: String, of elementType: Element.Type = Element.self,
    bufferingPolicy limit: Continuation.BufferingPolicy = .unbounded,
    _ build: (Continuation) -> Void
  ) -> AsyncThrowingStream<Element, any Error> {
    guard let scheduler = DeterministicScheduler.current else {
      return AsyncThrowingStream(elementType, bufferingPolicy: limit, build)
    }
    let (stream, continuation) = controlled(name, bufferingPolicy: limit, on: scheduler)
    build(continuation)
    return stream
  }

  /// Creates a throwing stream and its continuation exactly as
  /// `AsyncThrowingStream.makeStream(of:throwing:bufferingPolicy:)` does, except that under
  /// `withTestHandler(streamHandling: .expect)` the script takes its elements over.
  ///
  /// ```swift
  /// let (lines, continuation) = AsyncThrowingStream.makeEffectStream("lines", of: String.self)
  /// Task.effect(name: "reader") {
  ///   continuation.yield("Hello")
  ///   continuation.finish(throwing: Disconnected())
  /// }
  /// for try await line in lines { print(line) }
  /// ```
  @inlinable
  public static func makeEffectStream(
    _ name: String, of elementType: Element.Type = Element.self,
    bufferingPolicy limit: Continuation.BufferingPolicy = .unbounded
  ) -> (stream: AsyncThrowingStream<Element, any Error>, continuation: Continuation) {
    guard let scheduler = DeterministicScheduler.current else {
      return makeStream(of: elementType, bufferingPolicy: limit)
    }
    return controlled(name, bufferingPolicy: limit, on: scheduler)
  }

  /// The stream and continuation of ``makeEffectStream(_:of:bufferingPolicy:)`` under a scheduler.
  @usableFromInline
  static func controlled(
    _ name: String, bufferingPolicy limit: Continuation.BufferingPolicy, on scheduler: DeterministicScheduler
  ) -> (stream: AsyncThrowingStream<Element, any Error>, continuation: Continuation) {
    // With no script to take its elements over, it is the plain stream, made to note the
    // elements its consumer receives (NotedStream.swift): its buffering policy applies when the
    // producer yields, a waiting consumer becomes ready when an element is yielded, and
    // `onTermination` runs when the consumer is cancelled or goes away.
    guard let script = StreamDelivery.script(takingElementsOn: scheduler) else {
      let (stream, continuation) = makeStream(of: Element.self, bufferingPolicy: limit)
      return (NotedStream.noting(stream, as: name, on: scheduler), continuation)
    }
    // Unbounded, since the delivery task empties it as soon as it runs; the script's deliveries
    // fill the stream the consumer reads, under its policy.
    let (source, input) = makeStream(of: Element.self)
    let (stream, output) = makeStream(of: Element.self, bufferingPolicy: limit)
    let delivery = StreamDelivery.start(name, from: source, to: StreamOutlet(output), script: script, on: scheduler)
    output.onTermination = { _ in delivery.cancel() }
    return (stream, input)
  }
}
