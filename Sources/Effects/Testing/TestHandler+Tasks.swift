import EffectScheduler

extension TestHandler {
  /// Expects the program's next step to be the creation of a task named `name` with
  /// `Task.effect`, under ``TaskHandling/suspend``, and enqueues it at once or holds it.
  ///
  /// ```swift
  /// let first = try await effect.expectTask("Task 1", action: .suspend)
  /// try await effect.expectTask("Task 2", action: .enqueue)
  /// ```
  ///
  /// Returns the task, to enqueue later when it is held.
  @discardableResult
  public func expectTask(
    _ name: String, action: TestTask.Action = .enqueue,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async throws -> TestTask {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let expected = "task \"\(name)\""
    let pending = try await session.next(expecting: expected, at: site) { !$0.isElement() }
    guard case .task(let task) = pending.subject, task.name == name else {
      throw session.record(EffectTestFailure(.mismatch(expected: expected, performed: pending.description), at: site))
    }
    session.take(pending)
    if action == .enqueue { session.enqueue(task) }
    await session.waitUntilSettled()
    return TestTask(session: session, task: task)
  }
}
