import EffectScheduler

extension AsyncStream where Element: Sendable {
  /// Creates a stream exactly as `AsyncStream(_:bufferingPolicy:_:)` does, except that under a
  /// ``DeterministicScheduler`` every element the stream delivers is a step of the scheduler, noted
  /// in the trace under `name`, and under `withTestHandler` the script can take the elements over.
  ///
  /// ```swift
  /// let ticks = AsyncStream.effect("ticks", of: Int.self) { continuation in
  ///   for tick in 1...3 { continuation.yield(tick) }
  ///   continuation.finish()
  /// }
  /// for await tick in ticks { print(tick) }
  /// ```
  ///
  /// With no scheduler active it is a plain `AsyncStream`, at the cost of one task-local read. Under
  /// a scheduler the continuation `build` receives feeds a task named `name`, which moves each
  /// element to the stream returned, one step an element or a batch: the step shows as
  /// `ticks ← 3` in ``Trace/table``, and a consumer waiting for the element becomes ready then, so
  /// `explore` orders its delivery against the program's other steps. The buffering policy drops
  /// elements where they wait for the consumer, so `yield` always reports an element enqueued.
  /// A producer that never finishes and a consumer that never stops leave that task waiting,
  /// listed in ``Execution/unfinishedTasks``.
  ///
  /// Under `withTestHandler(streamHandling: .expect)` each element goes to the script instead:
  /// see ``TestHandler/expectElement(of:as:fileID:filePath:line:column:)``.
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
  /// does, except that under a ``DeterministicScheduler`` each element's delivery is a step named
  /// by `name`, as with ``effect(_:of:bufferingPolicy:_:)``.
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
  /// the continuation feeds a source that the stream's delivery task reads.
  @usableFromInline
  static func controlled(
    _ name: String, bufferingPolicy limit: Continuation.BufferingPolicy, on scheduler: DeterministicScheduler
  ) -> (stream: AsyncStream<Element>, continuation: Continuation) {
    // Unbounded, since the delivery task empties it as soon as it runs.
    let (source, input) = makeStream(of: Element.self)
    let (stream, output) = makeStream(of: Element.self, bufferingPolicy: limit)
    let delivery = StreamDelivery.start(name, from: source, to: StreamOutlet(output), on: scheduler)
    output.onTermination = { _ in delivery.cancel() }
    return (stream, input)
  }
}
