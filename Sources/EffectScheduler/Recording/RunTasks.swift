/// The run's tasks: their records, the root's, the names given to tasks about to start, and the
/// tasks the run holds so that their memory is not reused while it runs.
struct RunTasks {
  var registry = TaskRegistry()
  /// The step in which the root task completed, the program's body having returned or thrown.
  var rootCompletedInStep: Int?
  /// The runtime id of the run's root task: tasks created before it are not the program's.
  var rootRuntimeID: UInt64 = 0
  /// The name `Task.effect` gives the task it is creating, for the scheduler to register it under.
  var nameOfNextTask: String?
  /// The runtime ids of the tasks without an executor preference that this run took over.
  var ownedRuntimeIDs: [UInt64] = []
  /// Whether this run reads its tasks' status, holding its unstructured tasks and giving those
  /// without a preference the scheduler as one, and the tasks it holds; see ExecutorAdoption.swift.
  var readsTaskStatus = false
  var heldTasks: [HeldTask] = []
  /// The held tasks whose completion an actor's job may still have brought about unrecorded:
  /// those not known to have completed at the last look (``recordHeldTasksCompleted()``).
  var heldTasksRunning: [TaskID] = []
  /// The run's task-group children, each retained until the run ends so that its memory stays
  /// its own; see ExecutorAdoption.swift.
  var retainedGroupChildren: [UnsafeRawPointer] = []
  /// While the running job's task is watched for completion, how many references to
  /// ``activeRun`` there should be once the job is done unless the task completes; `nil` otherwise.
  var witnessBaseline: Int?
  /// The step from which the run no longer looks for the tasks each step cancelled, having too
  /// many to look at (``DeterministicScheduler/recordCancellationsOfThisStep()``); `nil` while it
  /// looks, or where it never did.
  var cancellationsUnwatchedFrom: Int?

  /// Forgets the run's tasks, keeping the storage, for another run: the tasks it held are let go
  /// when the run ends (``DeterministicScheduler/releaseHeldTasks()``).
  mutating func clear() {
    registry.removeAll()
    rootCompletedInStep = nil
    cancellationsUnwatchedFrom = nil
    if !ownedRuntimeIDs.isEmpty { ownedRuntimeIDs.removeAll(keepingCapacity: true) }
  }
}
