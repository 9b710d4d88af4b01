import EffectScheduler

extension Task where Failure == Never {
  /// Creates a task exactly as `Task.init(name:priority:operation:)` does, except that under a
  /// `DeterministicScheduler` the task runs on the scheduler, which names it and decides when each
  /// of its segments runs.
  ///
  /// With no scheduler active the only extra cost is one task-local read. Like `Task.init`, the
  /// operation inherits the caller's actor isolation and task-local values.
  ///
  /// ```swift
  /// let greeting = Task.effect(name: "greeter") { await greeter.greet("Blob") }
  /// print(await greeting.value)
  /// ```
  ///
  /// Under a scheduler, an operation isolated to the main actor runs on the scheduler's stand-in
  /// for the main actor, as controlled jobs like any other.
  ///
  /// Under `withTestHandler` the test script decides when the task starts; see ``TaskHandling``.
  // Inlinable, so that without a scheduler the caller gets `Task.init` specialized for its own
  // types, exactly as if it had called it.
  @inlinable @discardableResult
  public static func effect(
    name: String? = nil,
    priority: TaskPriority? = nil,
    @_inheritActorContext @_implicitSelfCapture operation: sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    guard let scheduler = DeterministicScheduler.current else {
      return Task(name: name, priority: priority, operation: operation)
    }
    return controlled(on: scheduler, name: name, priority: priority, operation: operation)
  }

  /// `Task.effect` under a scheduler: a test script in scope decides when the task starts;
  /// otherwise it starts on the scheduler at once.
  @usableFromInline
  static func controlled(
    on scheduler: DeterministicScheduler, name: String?, priority: TaskPriority?,
    operation: sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    if let script = EffectScope.current.script(controlling: scheduler) {
      return script.spawn(name: name, priority: priority, on: scheduler, operation: operation)
    }
    return scheduler.spawn(name: name, priority: priority, operation: operation)
  }
}

extension Task where Failure == any Error {
  /// Creates a throwing task exactly as `Task.init(name:priority:operation:)` does, except that
  /// under a `DeterministicScheduler` the task runs on the scheduler, which names it and decides
  /// when each of its segments runs.
  ///
  /// ```swift
  /// let download = Task.effect(name: "download") { try await client.fetch(url) }
  /// let data = try await download.value
  /// ```
  @inlinable @discardableResult
  public static func effect(
    name: String? = nil,
    priority: TaskPriority? = nil,
    @_inheritActorContext @_implicitSelfCapture operation: sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error> {
    guard let scheduler = DeterministicScheduler.current else {
      return Task(name: name, priority: priority, operation: operation)
    }
    return controlled(on: scheduler, name: name, priority: priority, operation: operation)
  }

  /// The throwing form of `Task.effect` under a scheduler.
  @usableFromInline
  static func controlled(
    on scheduler: DeterministicScheduler, name: String?, priority: TaskPriority?,
    operation: sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error> {
    if let script = EffectScope.current.script(controlling: scheduler) {
      return script.spawn(name: name, priority: priority, on: scheduler, operation: operation)
    }
    return scheduler.spawn(name: name, priority: priority, operation: operation)
  }
}
