/// The job the scheduler runs now, and its task: what the hooks and the drop-ins ask of the step
/// under way.
struct RunningJobState {
  var runningTask: TaskID?
  /// The task whose step the job that ran last was (``ReadyJob/owner``): an actor's job scheduled
  /// while no task runs carries on its work.
  var ownerOfLastJob: TaskID?
  /// The runtime id of the task whose job is running, and whether it runs on the main actor.
  var runningRuntimeID: UInt64 = 0
  var runningOnMainActor = false
  /// The job of the running task, to tell whether the runtime still counts it as running.
  var runningJob: UnownedJob?
  /// A job of the running task that it handed to the global executor only to hop there.
  var selfHop: UnownedJob?
  /// The step a thread paused in, for the thread that goes on with the loop to end.
  var stepToEnd: ReadyJob?
  /// The job of the step under way, while it runs.
  var runningStep: ReadyJob?
  /// The actor whose job runs, by its number in the trace, while it runs.
  var runningActor: Int?
  /// The address of the job the step under way began with (see ``RaceDetector``).
  var stepJob: UInt = 0

  /// Forgets the job and task that ran last, for another run.
  mutating func clear() {
    runningTask = nil
    ownerOfLastJob = nil
    runningStep = nil
    runningActor = nil
    stepToEnd = nil
  }
}
