extension DeterministicScheduler {
  /// Creates an unstructured task that runs on this scheduler, the way `Task.effect` does when a
  /// scheduler is active. The scheduler learns the task's name and when it completes.
  package func spawn<Success: Sendable>(
    name: String?,
    priority: TaskPriority?,
    operation: sending @escaping @isolated(any) () async -> Success
  ) -> Task<Success, Never> {
    Task(name: name, executorPreference: self, priority: priority) {
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
    Task(name: name, executorPreference: self, priority: priority) {
      self.currentTaskDidStart(name: name)
      defer { self.currentTaskWillComplete() }
      return try await operation()
    }
  }

  func currentTaskDidStart(name: String?) {
    guard isOnDriverThread, isDriving, let id = currentTaskID() else { return }
    registry[id].info.name = name
    registry[id].nameResolved = true
  }

  /// Marks the current task as finishing with the job now running.
  func currentTaskWillComplete() {
    guard isOnDriverThread, isDriving, let id = currentTaskID() else { return }
    registry[id].completed = true
    if id.rawValue == 0 { rootCompleted = true }
  }
}
