/// A synchronous operation whose behaviour the handlers in scope decide, such as reading a line
/// or printing one.
///
/// Declare an effect once, with a name and the implementation that runs when no handler takes
/// it, then call it like a function:
///
/// ```swift
/// enum Console {
///   static let readLine = Effect<String?>("Console.readLine") { Swift.readLine() }
///   static let print = Effect<String, Void>("Console.print") { Swift.print($0) }
/// }
///
/// while let line = Console.readLine() { Console.print(line) }
/// ```
///
/// The generic parameters are the argument types followed by the result type. The name is how
/// handlers and test scripts recognise the effect, so give each effect its own.
public struct Effect<each Argument: Sendable, Result: Sendable>: Sendable {
  /// The name handlers and failure messages know the effect by, such as `Console.print`.
  public let name: String
  let implementation: @Sendable (repeat each Argument) -> Result

  /// Declares an effect named `name` that runs `implementation` when no handler takes it.
  public init(_ name: String, _ implementation: @escaping @Sendable (repeat each Argument) -> Result) {
    self.name = name
    self.implementation = implementation
  }

  /// Performs the effect: the innermost handler in scope decides what happens, and with none the
  /// default implementation runs.
  ///
  /// Under a test script the calling thread waits until the script answers, since a synchronous
  /// call cannot suspend.
  public func callAsFunction(_ argument: repeat each Argument) -> Result {
    perform(repeat each argument, in: .current)
  }

  private func perform(_ argument: repeat each Argument, in scope: EffectScope) -> Result {
    guard let (interception, outer) = scope.interception(of: self) else {
      return implementation(repeat each argument)
    }
    switch interception {
    case .handler(let handler):
      return outer.perform { handler.implementation(repeat each argument) }
    case .script(let session):
      let slot = ReplySlot(blockingReturning: Result.self)
      session.submit(PendingEffect(name: name, arguments: repeat each argument, slot: slot))
      switch slot.waitBlocking(runningJobsOf: session.guest) {
      case .returned(let value): return value as! Result
      // An effect that cannot throw never gets an error stored (see `ReplySlot.storeFailure`).
      case .threw, .yielded: return perform(repeat each argument, in: outer)
      }
    }
  }
}
