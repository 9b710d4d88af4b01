// `Console.print.handler { line in … }`: the handler spelled from the effect, for `with` blocks.

extension Effect {
  /// A handler that performs `body` in place of this effect.
  ///
  /// ```swift
  /// with { Console.print.handler { line in Console.print(line.uppercased()) } } perform: { echo() }
  /// ```
  public func handler(_ body: @escaping @Sendable (repeat each Argument) -> Result) -> EffectHandler {
    EffectHandler(self, body)
  }
}

extension AsyncEffect {
  /// A handler that performs `body` in place of this effect.
  public func handler(_ body: @escaping @Sendable (repeat each Argument) async -> Result) -> EffectHandler {
    EffectHandler(self, body)
  }
}

extension ThrowingAsyncEffect {
  /// A handler that performs `body` in place of this effect.
  public func handler(_ body: @escaping @Sendable (repeat each Argument) async throws -> Result) -> EffectHandler {
    EffectHandler(self, body)
  }
}

extension StreamEffect {
  /// A handler that returns the stream `body` makes in place of this effect's.
  public func handler(
    _ body: @escaping @Sendable (repeat each Argument) -> AsyncThrowingStream<Element, any Error>
  ) -> EffectHandler {
    EffectHandler(self, body)
  }
}
