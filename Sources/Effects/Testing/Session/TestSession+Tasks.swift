import EffectScheduler

// Tasks created with `Task.effect` under a test script.
extension TestSession {
  /// Creates a task on `scheduler` whose operation starts when the task is enqueued, as
  /// `taskHandling` says.
  func spawn<Success: Sendable>(
    name: String?, priority: TaskPriority?, on scheduler: DeterministicScheduler,
    operation: sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    let gate = TaskGate(isOpen: taskHandling == .automaticallyEnqueue)
    let task = scheduler.spawn(name: name, priority: priority) {
      await gate.pass()
      return await operation()
    }
    track(TrackedTask(name: name, gate: gate) { _ = await task.result })
    return task
  }

  /// The throwing form of ``spawn(name:priority:on:operation:)``.
  func spawn<Success: Sendable>(
    name: String?, priority: TaskPriority?, on scheduler: DeterministicScheduler,
    operation: sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error> {
    let gate = TaskGate(isOpen: taskHandling == .automaticallyEnqueue)
    let task = scheduler.spawn(name: name, priority: priority) {
      await gate.pass()
      return try await operation()
    }
    track(TrackedTask(name: name, gate: gate) { _ = await task.result })
    return task
  }

  /// Registers a new task, for the program's end, and holds it back or hands it to the script.
  private func track(_ task: TrackedTask) {
    state.withLock { state in
      state.unawaitedTasks.append(task)
      if taskHandling == .ignore { state.heldTasks.append(task) }
    }
    if taskHandling == .suspend { submit(PendingEffect(task: task)) }
  }
}
