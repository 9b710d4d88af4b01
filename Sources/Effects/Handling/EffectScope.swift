import EffectScheduler

/// The effect handlers in force at some point of a program, as a value you can keep and reinstall
/// later.
///
/// Handlers are scoped to the task tree: a `with { … } perform: { … }` block installs them for its
/// body, and child tasks and tasks made with `Task.effect` inherit them. Capture the scope to bake
/// the handlers of one place into code that runs somewhere else:
///
/// ```swift
/// struct Program {
///   let scope = EffectScope.current
///   func run() { scope.perform { Console.print("Hello") } }
/// }
///
/// let program = with { EffectHandler(Console.print) { Console.print($0.uppercased()) } } perform: { Program() }
/// program.run()  // HELLO, whatever the caller's handlers are
/// ```
public struct EffectScope: Sendable {
  /// The handlers, innermost first.
  let handlers: [EffectHandler]

  @TaskLocal static var installed = EffectScope(handlers: [])

  /// The handlers in force for the current task.
  public static var current: EffectScope { installed }

  /// Runs `body` with this scope's handlers in force instead of the caller's.
  public func perform<Value>(_ body: () throws -> Value) rethrows -> Value {
    try Self.$installed.withValue(self, operation: body)
  }

  /// Runs `body` with this scope's handlers in force instead of the caller's.
  public func perform<Value>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Value
  ) async rethrows -> Value {
    try await Self.$installed.withValue(self, operation: body)
  }

  /// This scope with `inner` in force inside it; the first of `inner` is tried first.
  func adding(_ inner: [EffectHandler]) -> EffectScope {
    EffectScope(handlers: inner + handlers)
  }

  /// The test script in this scope that controls the tasks of `scheduler`, if any.
  func script(controlling scheduler: DeterministicScheduler) -> TestSession? {
    for handler in handlers {
      if case .script(let session) = handler.kind, session.controls(scheduler) { return session }
    }
    return nil
  }

  /// Who takes an effect declared as `effect`: the innermost handler for it or test script, with
  /// the scope outside that one; `nil` when nothing in scope takes it.
  func interception<Declared: NamedEffect>(of effect: Declared) -> (Interception<Declared>, outer: EffectScope)? {
    for (index, handler) in handlers.enumerated() {
      let interception: Interception<Declared>
      switch handler.kind {
      case .script(let session):
        interception = .script(session)
      case .replacement(let name, let replacement):
        guard name == effect.name, let replacement = replacement as? Declared else { continue }
        interception = .handler(replacement)
      }
      return (interception, EffectScope(handlers: Array(handlers[(index + 1)...])))
    }
    return nil
  }
}

/// Who takes an effect.
enum Interception<Declared> {
  /// A handler, given as an effect of the same type whose implementation is the handler's body.
  case handler(Declared)
  /// A test script.
  case script(TestSession)
}

/// The four kinds of effect declaration, seen by the code that routes them to handlers.
protocol NamedEffect: Sendable {
  var name: String { get }
}

extension Effect: NamedEffect {}
extension AsyncEffect: NamedEffect {}
extension ThrowingAsyncEffect: NamedEffect {}
extension StreamEffect: NamedEffect {}
