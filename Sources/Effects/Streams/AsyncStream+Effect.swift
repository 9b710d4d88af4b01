import EffectScheduler

extension AsyncStream where Element: Sendable {
  /// Creates a stream exactly as `AsyncStream(_:bufferingPolicy:_:)` does, except that under
  /// `withTestHandler(streamHandling: .expect)` the script takes its elements over.
  ///
  /// ```swift
  /// let ticks = AsyncStream.effect("ticks", of: Int.self) { continuation in
  ///   for tick in 1...3 { continuation.yield(tick) }
  ///   continuation.finish()
  /// }
  /// for await tick in ticks { print(tick) }
  /// ```
  ///
  /// With no scheduler active, and under a scheduler with no script taking its elements, it is a
  /// plain `AsyncStream`, at the cost of one task-local read, with the same semantics (under a
  /// scheduler, each element the consumer receives is noted in the trace, in its cell:
  /// `ticks ← 3`): the
  /// buffering policy applies when the producer yields and answers its `yield`, a consumer
  /// waiting for an element becomes ready when it is yielded (the explorer orders that against
  /// the program's other steps like any other wake-up), and `onTermination` runs when the consumer
  /// is cancelled or goes away, before its loop ends.
  ///
  /// Under `withTestHandler(streamHandling: .expect)` each element goes to the script instead,
  /// through a task named `name` whose steps are noted in the trace (`ticks ← 3`): see
  /// ``TestHandler/expectElement(of:as:fileID:filePath:line:column:)``.
  @inlinable
  public static func effect(
    _ name: String, of elementType: Element.Type = Element.self,
    bufferingPolicy limit: Continuation.BufferingPolicy = .unbounded,
    _ build: (Continuation) -> Void
  ) -> AsyncStream<Element> {
    guard let scheduler = DeterministicScheduler.current else {
      return AsyncStream(elementType, bufferingPolicy: limit, build)
    }
    let (stream, continuation) = controlled(name, bufferingPolicy: limit, on: scheduler)
    build(continuation)
    return stream
  }

  /// Creates a stream and its continuation exactly as `AsyncStream.makeStream(of:bufferingPolicy:)`
  /// does, except that under `withTestHandler(streamHandling: .expect)` the script takes its
  /// elements over, as with ``effect(_:of:bufferingPolicy:_:)``.
  ///
  /// ```swift
  /// let (ticks, continuation) = AsyncStream.makeEffectStream("ticks", of: Int.self)
  /// Task.effect(name: "clock") {
  ///   continuation.yield(1)
  ///   continuation.finish()
  /// }
  /// for await tick in ticks { print(tick) }
  /// ```
  @inlinable
  public static func makeEffectStream(
    _ name: String, of elementType: Element.Type = Element.self,
    bufferingPolicy limit: Continuation.BufferingPolicy = .unbounded
  ) -> (stream: AsyncStream<Element>, continuation: Continuation) {
    guard let scheduler = DeterministicScheduler.current else {
      return makeStream(of: elementType, bufferingPolicy: limit)
    }
    return controlled(name, bufferingPolicy: limit, on: scheduler)
  }

  /// The stream and continuation of ``makeEffectStream(_:of:bufferingPolicy:)`` under a scheduler:
  /// the plain ones, or, when a script takes the elements over, a continuation that feeds a source
  /// which the stream's delivery task reads.
  @usableFromInline
  static func controlled(
    _ name: String, bufferingPolicy limit: Continuation.BufferingPolicy, on scheduler: DeterministicScheduler
  ) -> (stream: AsyncStream<Element>, continuation: Continuation) {
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
