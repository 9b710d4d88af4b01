/// Everything a driven run produced: its record and the root task's result.
package struct RunOutcome<Value> {
  /// What the run recorded; its facts are read through the part that records each
  /// (``RunRecord``).
  package let record: RunRecord
  /// The root task's result, or `nil` when the run stopped before the root task finished.
  package let result: Result<Value, any Error>?

  /// The choices made.
  package var schedule: Schedule { record.schedule }
  /// What happened, built on demand.
  package var trace: Trace { record.trace }
  /// Why the run stopped early, or `nil` when it finished.
  package var failure: SchedulerError? { record.failure }

  /// The execution, the program's error, or the scheduler's error.
  package var execution: Result<Execution<Value>, any Error> {
    if let failure { return .failure(failure) }
    guard case .finished(let unfinished) = record.ending, let result else {
      return .failure(SchedulerError(reason: .strategyFailed("the run ended without a result"), schedule: schedule, trace: trace))
    }
    return result.map { Execution(value: $0, schedule: schedule, trace: trace, unfinishedTasks: unfinished) }
  }
}
