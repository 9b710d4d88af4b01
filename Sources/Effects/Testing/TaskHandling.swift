/// How a test script treats the tasks the program creates with `Task.effect`.
///
/// ```swift
/// try await withTestHandler(taskHandling: .suspend) {
///   program()
/// } test: { effect in
///   let first = try await effect.expectTask("Task 1", action: .suspend)
///   try await effect.expectTask("Task 2")
///   first.enqueue()
///   …
/// }
/// ```
public enum TaskHandling: Hashable, Sendable {
  /// Each task joins one serial queue when it is created and runs when the tasks before it have
  /// suspended or finished, so nested tasks run in creation order. The script never sees them.
  case automaticallyEnqueue
  /// Each task's creation is handed to the script, which enqueues it at once or later with
  /// ``TestHandler/expectTask(_:action:fileID:line:column:)``. Tasks still held when the
  /// script ends are enqueued then.
  case suspend
  /// Tasks are held back and the script never sees them: one nobody waits for never runs. When the
  /// program has nothing else to run and waits on no effect, the oldest held task starts, which
  /// lets a task the program awaits run when it is awaited.
  case ignore
}
