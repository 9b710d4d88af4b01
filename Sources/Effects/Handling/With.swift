/// Runs `body` with `handlers` in force, the way `do { } catch { }` runs a block with its error
/// handlers, and returns what `body` returns.
///
/// ```swift
/// with {
///   EffectHandler(Console.print) { line in Console.print(line.uppercased()) }
/// } perform: {
///   echo()
/// }
/// ```
///
/// An effect goes to the innermost handler for it: the first handler for it in the innermost
/// block, then the next one, then the blocks outside. A handler that performs an effect itself
/// passes it to the next handler out; with no handler left, the effect's default implementation
/// runs.
public func with<Value>(
  @EffectHandlerBuilder _ handlers: () -> [EffectHandler], perform body: () throws -> Value
) rethrows -> Value {
  try EffectScope.current.adding(handlers()).perform(body)
}

/// Runs the asynchronous `body` with `handlers` in force and returns what `body` returns.
///
/// ```swift
/// let data = try await with {
///   EffectHandler(HTTP.data) { url in try await cache[url] ?? HTTP.data(url) }
/// } perform: {
///   try await HTTP.data(url)
/// }
/// ```
public func with<Value>(
  @EffectHandlerBuilder _ handlers: () -> [EffectHandler],
  isolation: isolated (any Actor)? = #isolation,
  perform body: () async throws -> Value
) async rethrows -> Value {
  try await EffectScope.current.adding(handlers()).perform(body)
}
