import Effects

/// How a classic bug's program creates its unstructured tasks: with `Task.effect`, or with a plain
/// `Task {}`, which the scheduler takes over too. Every bug must be found, and every fixed twin
/// must pass, either way.
public enum Spawn: String, Sendable, CaseIterable, CustomStringConvertible {
  /// `Task.effect`.
  case effect = "Task.effect"
  /// A plain `Task {}`.
  case plain = "Task {}"

  /// How the task is written in source.
  public var description: String { rawValue }

  /// Creates a task the chosen way. Like both of them, the operation inherits the caller's actor
  /// isolation and task-local values.
  @discardableResult
  public func callAsFunction<Success: Sendable>(
    name: String,
    @_inheritActorContext @_implicitSelfCapture _ operation: sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    switch self {
    case .effect: Task.effect(name: name, operation: operation)
    case .plain: Task(name: name, operation: operation)
    }
  }
}
