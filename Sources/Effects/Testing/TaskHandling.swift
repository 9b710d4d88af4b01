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
  /// ``TestHandler/expectTask(_:action:fileID:filePath:line:column:)``. Tasks still held when the
  /// script ends are enqueued then.
  case suspend
  /// Tasks are held back and the script never sees them: one nobody waits for never runs, and one
  /// the program awaits starts when it is awaited. Held tasks start at background priority, and
  /// awaiting one from a task of higher priority raises it, which releases it. Where that signal
  /// is missing (the awaiting task runs at background priority too, or the platform predates
  /// priority escalation handlers) and the program has nothing else to run and waits on no effect,
  /// the oldest held task starts. Tasks left unfinished so are not reported as leaked
  /// (`SchedulerConfiguration.reportsLeakedTasks` is off for such a run).
  case ignore
}
