// Tasks a program's body leaves unfinished when it returns (see
// `SchedulerConfiguration.reportsLeakedTasks`).
//
// A task still waiting when the test ends is a bug the test cannot see: a continuation never
// resumed, a stream never finished, a lock never released. Go's tests catch such goroutines with
// goleak; here the run goes on after the body returns, as the program would, until no task can go
// on, and whatever is left unfinished then fails the run, named with what it waits on.

extension DeterministicScheduler {
  /// How many steps a run takes after the body returned, for the tasks it left to finish, before
  /// those still running are reported as leaked: enough for any task that is winding down, few
  /// enough that a loop that never ends is reported in a moment.
  package static let stepsForLeftTasks = 10_000

  /// Whether the body has left tasks unfinished that the run waits for, to report them if they
  /// never finish: the configuration asks for it, and the run can tell when a task completes (it
  /// reads its tasks' status). Settles the structured children of completed tasks first.
  func waitsForLeftTasks() -> Bool {
    guard configuration.reportsLeakedTasks, tasks.readsTaskStatus else { return false }
    completeStructuredChildren()
    return tasks.registry.records.contains { !$0.completed }
  }

  /// The report of tasks still running `stillRunningAfter` steps after the body returned, and of
  /// those blocked beside them.
  func leakReason(stillRunningAfter steps: Int) -> SchedulerError.Reason {
    guard case .leakedTasks(let blocked, _) = stuckReason() else { return .leakedTasks(blocked: [], stillRunningAfter: steps) }
    return .leakedTasks(blocked: blocked, stillRunningAfter: steps)
  }
}
