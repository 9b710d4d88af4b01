/// Collects the handlers of a `with { … } perform: { … }` block, with `if` and `else`.
///
/// ```swift
/// with {
///   if logging { EffectHandler(Console.print) { log.append($0); Console.print($0) } }
///   EffectHandler(Console.readLine) { Console.readLine()?.uppercased() }
/// } perform: {
///   echo()
/// }
/// ```
@resultBuilder
public enum EffectHandlerBuilder {
  /// One handler.
  public static func buildExpression(_ handler: EffectHandler) -> [EffectHandler] { [handler] }

  /// The handlers of a block, in order.
  public static func buildBlock(_ handlers: [EffectHandler]...) -> [EffectHandler] { handlers.flatMap { $0 } }

  /// The handlers of an `if` without `else`, when its condition holds.
  public static func buildOptional(_ handlers: [EffectHandler]?) -> [EffectHandler] { handlers ?? [] }

  /// The handlers of the first branch of an `if`–`else`.
  public static func buildEither(first handlers: [EffectHandler]) -> [EffectHandler] { handlers }

  /// The handlers of the second branch of an `if`–`else`.
  public static func buildEither(second handlers: [EffectHandler]) -> [EffectHandler] { handlers }
}
