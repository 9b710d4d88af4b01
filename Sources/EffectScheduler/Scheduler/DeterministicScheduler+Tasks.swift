extension DeterministicScheduler {
  /// Creates an unstructured task that runs on this scheduler, the way `Task.effect` does when a
  /// scheduler is active. The scheduler learns the task's name and when it completes.
  ///
  /// Where the run reads its tasks' status (see ExecutorAdoption.swift), this is a plain `Task`,
  /// which the run adopts as it adopts every plain task, so the two are scheduled alike. Elsewhere
  /// the task is made with the scheduler as its preference and says itself when it completes:
  /// that costs one step more, at its end, than a plain task that ends on an actor.
  package func spawn<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    operation: sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    let named = nameNextTask(name)
    defer { if named { tasks.nameOfNextTask = nil } }
    if tasks.readsTaskStatus { return Task(name: name, priority: priority, operation: operation) }
    return Task(name: name, executorPreference: self, priority: priority) {
      self.currentTaskDidStart(name: name)
      defer { self.currentTaskWillComplete() }
      return await operation()
    }
  }

  /// The throwing form of ``spawn(name:priority:operation:)``.
  package func spawn<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    operation: sending @escaping @isolated(any) () async throws -> Success
  ) -> Task<Success, any Error> {
    let named = nameNextTask(name)
    defer { if named { tasks.nameOfNextTask = nil } }
    if tasks.readsTaskStatus { return Task(name: name, priority: priority, operation: operation) }
    return Task(name: name, executorPreference: self, priority: priority) {
      self.currentTaskDidStart(name: name)
      defer { self.currentTaskWillComplete() }
      return try await operation()
    }
  }

  /// Registers the task about to be created under `name` from its first job on, so a task that
  /// never runs is named in the trace too: the runtime hands the scheduler a new task's first job
  /// while creating it, on the creating thread. Returns whether it did, in which case the caller
  /// clears the name once it has created the task.
  private func nameNextTask(_ name: String?) -> Bool {
    guard name != nil, isOnDriverThread, isDriving else { return false }
    tasks.nameOfNextTask = name
    return true
  }

  func currentTaskDidStart(name: String?) {
    guard isOnDriverThread, isDriving, let id = currentTaskID() else { return }
    tasks.registry[id].info.name = name
    tasks.registry[id].nameResolved = true
  }

  /// Marks the current task as finishing with the job now running.
  func currentTaskWillComplete() {
    guard isOnDriverThread, isDriving, let id = currentTaskID() else { return }
    tasks.registry[id].completed = true
    if id.rawValue == 0 { tasks.rootCompletedInStep = step }
  }

  /// Records what the current task is about to wait on, so a deadlock or stall report can say it.
  /// The note is cleared when the task next runs. The description is made only if a report needs
  /// it: a test script's every effect notes its wait, and few are ever reported.
  package func noteCurrentTaskWaits(on description: @escaping @autoclosure () -> String) {
    guard isOnDriverThread, isDriving, let id = currentTaskID() else { return }
    tasks.registry[id].waitingOn = description
  }

  /// Adds `text` to the trace as a note of the current task at the current step, such as
  /// `ticks ← 3` for an element a stream delivers. It counts in the trace's fingerprint, so two
  /// runs whose notes differ have different traces. Does nothing outside a controlled task.
  package func noteInTrace(_ text: String) {
    guard isOnDriverThread, isDriving, let id = currentTaskID() else { return }
    trail.notes.append(TraceNote(step: step, task: id, text: text))
    // Packed as an event is, with 7, a kind code no event has, so a note never folds in as one.
    foldIntoFingerprint(UInt64(truncatingIfNeeded: step) << 24 | UInt64(truncatingIfNeeded: id.rawValue & 0xFFF) << 12 | 7 << 1)
    for byte in text.utf8 { foldIntoFingerprint(UInt64(byte)) }
  }

  /// Announces that something outside the scheduler's control will hand work back for sure, such
  /// as a test script that answers every effect. While any announcement is open the scheduler
  /// waits for it without a time limit. Safe to call from any thread; balance each call with
  /// ``withdrawWorkFromOutside()``.
  package func announceWorkFromOutside() {
    mailbox.adjustExpectedFromOutside(by: 1)
  }

  /// Withdraws one ``announceWorkFromOutside()``. Safe to call from any thread.
  package func withdrawWorkFromOutside() {
    mailbox.adjustExpectedFromOutside(by: -1)
  }

  /// Wakes the driver thread if it waits for work from outside, so that it calls ``whenIdle``
  /// again: for work the test machinery queued under an announcement it made earlier. Safe to
  /// call from any thread.
  package func wakeUpDriver() {
    mailbox.wakeUpDriver()
  }
}
