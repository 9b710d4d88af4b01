/// An asynchronous operation whose behaviour the handlers in scope decide.
///
/// ```swift
/// enum Clock {
///   static let sleep = AsyncEffect<Duration, Void>("Clock.sleep") { try? await Task.sleep(for: $0) }
/// }
///
/// await Clock.sleep(.seconds(1))
/// ```
///
/// Use ``ThrowingAsyncEffect`` when the operation can fail.
public struct AsyncEffect<each Argument: Sendable, Result: Sendable>: Sendable {
  /// The name handlers and failure messages know the effect by.
  public let name: String
  let implementation: @Sendable (repeat each Argument) async -> Result

  /// Declares an effect named `name` that runs `implementation` when no handler takes it.
  public init(_ name: String, _ implementation: @escaping @Sendable (repeat each Argument) async -> Result) {
    self.name = name
    self.implementation = implementation
  }

  /// Performs the effect: the innermost handler in scope decides what happens, and with none the
  /// default implementation runs.
  public func callAsFunction(_ argument: repeat each Argument) async -> Result {
    await perform(repeat each argument, in: .current)
  }

  private func perform(_ argument: repeat each Argument, in scope: EffectScope) async -> Result {
    guard let (interception, outer) = scope.interception(of: self) else {
      return await implementation(repeat each argument)
    }
    switch interception {
    case .handler(let handler):
      return await outer.perform { await handler.implementation(repeat each argument) }
    case .script(let session):
      let slot = ReplySlot(returning: Result.self, canThrow: false)
      switch await slot.wait(submittingTo: session, PendingEffect(name: name, arguments: repeat each argument, slot: slot)) {
      case .returned(let value): return value as! Result
      // An effect that cannot throw never gets an error stored (see `ReplySlot.storeFailure`).
      case .threw, .yielded: return await perform(repeat each argument, in: outer)
      }
    }
  }
}
