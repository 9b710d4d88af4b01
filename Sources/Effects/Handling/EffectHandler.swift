/// What an effect does inside a `with { … } perform: { … }` block: a replacement implementation
/// for one effect, or the test script of ``withTestHandler(taskHandling:streamHandling:configuration:isolation:fileID:filePath:line:column:_:test:)``.
///
/// ```swift
/// with {
///   EffectHandler(Console.print) { line in Console.print(line.uppercased()) }
/// } perform: {
///   echo()
/// }
/// ```
///
/// While a handler runs, the handlers in scope are the ones outside it, so an effect it performs,
/// including the one it handles, goes to the next handler out.
public struct EffectHandler: Sendable {
  enum Kind: Sendable {
    /// A replacement: an effect of the handled type whose implementation is the handler's body.
    case replacement(name: String, effect: any Sendable)
    /// A test script, which takes every effect.
    case script(TestSession)
  }

  let kind: Kind

  init(_ kind: Kind) {
    self.kind = kind
  }

  /// Handles `effect` with `body`, which receives the effect's arguments and returns its result.
  public init<each Argument, Result>(
    _ effect: Effect<repeat each Argument, Result>, _ body: @escaping @Sendable (repeat each Argument) -> Result
  ) {
    kind = .replacement(name: effect.name, effect: Effect(effect.name, body))
  }

  /// Handles `effect` with `body`, which receives the effect's arguments and returns its result.
  public init<each Argument, Result>(
    _ effect: AsyncEffect<repeat each Argument, Result>,
    _ body: @escaping @Sendable (repeat each Argument) async -> Result
  ) {
    kind = .replacement(name: effect.name, effect: AsyncEffect(effect.name, body))
  }

  /// Handles `effect` with `body`, which receives the effect's arguments and returns its result or
  /// throws.
  public init<each Argument, Result>(
    _ effect: ThrowingAsyncEffect<repeat each Argument, Result>,
    _ body: @escaping @Sendable (repeat each Argument) async throws -> Result
  ) {
    kind = .replacement(name: effect.name, effect: ThrowingAsyncEffect(effect.name, body))
  }

  /// Handles `effect` with `body`, which receives the effect's arguments and returns the stream.
  public init<each Argument, Element>(
    _ effect: StreamEffect<repeat each Argument, Element>,
    _ body: @escaping @Sendable (repeat each Argument) -> AsyncThrowingStream<Element, any Error>
  ) {
    kind = .replacement(name: effect.name, effect: StreamEffect(effect.name, body))
  }
}
