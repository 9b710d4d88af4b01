/// How a test script treats the elements of streams the program makes with
/// `AsyncStream.effect` or `AsyncThrowingStream.effect`.
///
/// ```swift
/// try await withTestHandler(streamHandling: .expect) {
///   await model.run()
/// } test: { effect in
///   let tick = try await effect.expectElement(of: "ticks", as: Int.self)
///   #expect(tick.value == 1)
///   await tick.deliver()
/// }
/// ```
public enum StreamHandling: Hashable, Sendable {
  /// Elements reach the consumer as the producer yields them, each delivery a step of the
  /// program. The script never sees them.
  case automatic
  /// Each element is handed to the script, in the order the producer yielded it, and reaches the
  /// consumer only when the script delivers it; see
  /// ``TestHandler/expectElement(of:as:fileID:filePath:line:column:)``. The producer's own end of the stream
  /// reaches the consumer once every element before it has been delivered or dropped.
  case expect
}
