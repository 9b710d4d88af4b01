/// A task the program created, as the test script sees it under ``TaskHandling/suspend``.
///
/// ```swift
/// let first = try await effect.expectTask("Task 1", action: .suspend)
/// let second = try await effect.expectTask("Task 2", action: .suspend)
/// second.enqueue()
/// first.enqueue()  // Task 2 runs before Task 1
/// ```
public struct TestTask: Sendable {
  /// What the script does with a task when it sees it created.
  public enum Action: Hashable, Sendable {
    /// Let the task start once the program's current steps are done.
    case enqueue
    /// Hold the task until the script calls ``TestTask/enqueue()``.
    case suspend
  }

  let session: TestSession
  let task: TrackedTask

  /// The task's name.
  public var name: String { task.name }

  /// Lets the task start: it joins the queue behind the tasks already enqueued. Enqueuing a task
  /// twice does nothing.
  public func enqueue() {
    session.enqueue(task)
  }
}
