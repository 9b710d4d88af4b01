/// Everything a driven run produced: its record and the root task's result.
package struct RunOutcome<Value> {
  let record: RunRecord
  /// The root task's result, or `nil` when the run stopped before the root task finished.
  package let result: Result<Value, any Error>?

  /// The choices made.
  package var schedule: Schedule { record.schedule }
  /// What happened, built on demand.
  package var trace: Trace { record.trace }
  /// A hash of the trace's events; see ``RunRecord/traceFingerprint``.
  package var traceFingerprint: UInt64 { record.traceFingerprint }
  /// Whether instrumented code of the run's steps told the run of its operations; see
  /// ``RunRecord/instrumented``.
  package var instrumented: Bool { record.instrumented }
  /// How many steps the run took.
  package var steps: Int { record.steps }
  /// The steps whose job was handed back from outside the scheduler's control.
  package var outsideSteps: [Int] { record.outsideSteps }
  /// Whether any job was handed back from outside, run or not.
  package var receivedWorkFromOutside: Bool { record.receivedWorkFromOutside }
  /// The work the run's code handed to Dispatch.
  package var handOffs: [HandOff] { record.handOffs }
  /// Whether a step took a lock the scheduler does not control; see ``RunRecord/tookUncontrolledLocks``.
  package var tookUncontrolledLocks: Bool { record.tookUncontrolledLocks }
  /// Whether a step made an object holding a noncopyable value; see ``RunRecord/madeNoncopyableHolders``.
  package var madeNoncopyableHolders: Bool { record.madeNoncopyableHolders }
  package var unexplored: String? { record.unexplored }
  /// Whether the fairness rule removed a branch; see ``RunRecord/fairYieldsRemovedABranch``.
  package var fairYieldsRemovedABranch: Bool { record.fairYieldsRemovedABranch }
  /// Whether plain tasks ran unadopted; see ``RunRecord/plainTasksWentUnadopted``.
  package var plainTasksWentUnadopted: Bool { record.plainTasksWentUnadopted }
  /// The first issue recorded in one of the run's steps; see ``RunRecord/issueRecorded``.
  package var issueRecorded: String? { record.issueRecorded }
  /// The step from which on the run was cut short; see ``RunRecord/cutAtStep``.
  package var cutAtStep: Int? { record.cutAtStep }
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
