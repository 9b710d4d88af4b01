/// An operation that produces an asynchronous sequence of elements, whose behaviour the handlers
/// in scope decide.
///
/// ```swift
/// enum Random {
///   static let numbers = StreamEffect<ClosedRange<Int>, Int>("Random.numbers") { range in
///     AsyncThrowingStream {
///       try await Task.sleep(for: .seconds(1))
///       return Int.random(in: range)
///     }
///   }
/// }
///
/// for try await number in Random.numbers(0...100) { … }
/// ```
///
/// A handler replaces the whole stream. Under a test script the stream is the script's: each
/// element is one effect, which the script answers with the element, with `nil` to finish the
/// stream, or by throwing to fail it.
public struct StreamEffect<each Argument: Sendable, Element: Sendable>: Sendable {
  /// The name handlers and failure messages know the effect by.
  public let name: String
  let implementation: @Sendable (repeat each Argument) -> AsyncThrowingStream<Element, any Error>

  /// Declares an effect named `name` whose stream comes from `implementation` when no handler
  /// takes it.
  public init(
    _ name: String, _ implementation: @escaping @Sendable (repeat each Argument) -> AsyncThrowingStream<Element, any Error>
  ) {
    self.name = name
    self.implementation = implementation
  }

  /// Performs the effect and returns the stream that the innermost handler in scope provides; with
  /// none, the default implementation's.
  public func callAsFunction(_ argument: repeat each Argument) -> AsyncThrowingStream<Element, any Error> {
    perform(repeat each argument, in: .current)
  }

  func perform(_ argument: repeat each Argument, in scope: EffectScope) -> AsyncThrowingStream<Element, any Error> {
    guard let (interception, outer) = scope.interception(of: self) else {
      return implementation(repeat each argument)
    }
    switch interception {
    case .handler(let handler):
      return outer.perform { handler.implementation(repeat each argument) }
    case .script(let session):
      let elements = ScriptedElements(of: self, arguments: repeat each argument, session: session, outer: outer)
      return AsyncThrowingStream(unfolding: elements.next)
    }
  }
}

/// The elements of a stream effect under a test script: each one is an effect the script answers.
///
/// It is `@unchecked Sendable` because the stream asks for one element at a time, so the iterator
/// it keeps is never touched by two callers at once.
private final class ScriptedElements<each Argument: Sendable, Element: Sendable>: @unchecked Sendable {
  private let effect: StreamEffect<repeat each Argument, Element>
  private let arguments: (repeat each Argument)
  private let session: TestSession
  private let outer: EffectScope
  /// The stream of the handlers outside the script, made the first time the script yields an
  /// element to them.
  private var outerElements: AsyncThrowingStream<Element, any Error>.Iterator?

  init(
    of effect: StreamEffect<repeat each Argument, Element>, arguments: repeat each Argument,
    session: TestSession, outer: EffectScope
  ) {
    self.effect = effect
    self.arguments = (repeat each arguments)
    self.session = session
    self.outer = outer
  }

  func next() async throws -> Element? {
    let slot = ReplySlot(returning: Element?.self, canThrow: true)
    let pending = PendingEffect(name: effect.name, arguments: repeat each arguments, slot: slot)
    switch await slot.wait(submittingTo: session, pending) {
    case .returned(let element): return element as! Element?
    case .threw(let error): throw error
    case .yielded:
      if outerElements == nil {
        outerElements = effect.perform(repeat each arguments, in: outer).makeAsyncIterator()
      }
      return try await outerElements?.next()
    }
  }
}
