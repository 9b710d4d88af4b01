/// An asynchronous operation that can fail, whose behaviour the handlers in scope decide.
///
/// ```swift
/// enum HTTP {
///   static let data = ThrowingAsyncEffect<URL, Data>("HTTP.data") { url in
///     try await URLSession.shared.data(from: url).0
///   }
/// }
///
/// let data = try await HTTP.data(url)
/// ```
///
/// A test script can answer it with a value or throw an error into the program.
public struct ThrowingAsyncEffect<each Argument: Sendable, Result: Sendable>: Sendable {
  /// The name handlers and failure messages know the effect by.
  public let name: String
  let implementation: @Sendable (repeat each Argument) async throws -> Result

  /// Declares an effect named `name` that runs `implementation` when no handler takes it.
  public init(_ name: String, _ implementation: @escaping @Sendable (repeat each Argument) async throws -> Result) {
    self.name = name
    self.implementation = implementation
  }

  /// Performs the effect: the innermost handler in scope decides what happens, and with none the
  /// default implementation runs.
  public func callAsFunction(_ argument: repeat each Argument) async throws -> Result {
    try await perform(repeat each argument, in: .current)
  }

  private func perform(_ argument: repeat each Argument, in scope: EffectScope) async throws -> Result {
    guard let (interception, outer) = scope.interception(of: self) else {
      return try await implementation(repeat each argument)
    }
    switch interception {
    case .handler(let handler):
      return try await outer.perform { try await handler.implementation(repeat each argument) }
    case .script(let session):
      let slot = ReplySlot(returning: Result.self, canThrow: true)
      switch await slot.wait(submittingTo: session, PendingEffect(name: name, arguments: repeat each argument, slot: slot)) {
      case .returned(let value): return value as! Result
      case .threw(let error): throw error
      case .yielded: return try await perform(repeat each argument, in: outer)
      }
    }
  }
}
