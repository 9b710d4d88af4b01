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
    let task = scheduler.spawn(name: name, priority: heldPriority ?? priority) {
      await self.pass(gate)
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
    let task = scheduler.spawn(name: name, priority: heldPriority ?? priority) {
      await self.pass(gate)
      return try await operation()
    }
    track(TrackedTask(name: name, gate: gate) { _ = await task.result })
    return task
  }

  /// With `.ignore`, held tasks start at the lowest priority, so that awaiting one raises its
  /// priority: the runtime's signal that someone waits for it.
  private var heldPriority: TaskPriority? { taskHandling == .ignore ? .background : nil }

  /// Waits behind `gate`. With `.ignore`, a task someone awaits gets its priority raised by the
  /// awaiting task, which releases it: that is how an awaited task runs when it is awaited.
  private func pass(_ gate: TaskGate) async {
    guard taskHandling == .ignore else { return await gate.pass() }
    if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
      await withTaskPriorityEscalationHandler {
        // Awaited before it first ran: its priority was raised already.
        if Task.currentPriority > .background { releaseHeldTask(behind: gate) }
        await gate.pass()
      } onPriorityEscalated: { _, _ in
        self.releaseHeldTask(behind: gate)
      }
    } else {
      await gate.pass()
    }
  }

  /// Lets the held task behind `gate` start, if it is still held.
  private func releaseHeldTask(behind gate: TaskGate) {
    let wasHeld = state.withLock { state in
      guard let index = state.heldTasks.firstIndex(where: { $0.gate === gate }) else { return false }
      state.heldTasks.remove(at: index)
      return true
    }
    if wasHeld { gate.open() }
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
