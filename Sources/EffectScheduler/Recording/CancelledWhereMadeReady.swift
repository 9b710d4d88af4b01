// What a run meets that no schedule can show, which the run notes (`unexplored`) so that an
// exploration that met it says so and claims no more than it tried (see `Explore`'s summary).
//
// A step that makes a task's job ready (starting the task, resuming its continuation) and then,
// before the step ends, cancels that task: on real threads the task may start its job between the
// two, on another thread, and find itself not cancelled yet. One job runs at a time here, from one
// suspension point to the next, so that order is in no schedule: the task's job always begins
// cancelled, unless the cancellation was a scheduling point (CancelCalls.swift), which takes the
// task off the list here. A task for the main actor made ready by a step on the main actor
// could not start before that step ends anyway, and is left out.
//
// A cancellation handler that waits for a drop-in lock another task holds: see
// `DeterministicScheduler.acquire(_:onlyIfAvailable:)`.

extension DeterministicScheduler {
  /// Notes a task's job made ready by the running step, one that may run before the step ends:
  /// a critical section after it is no step's first (LockPauses+Uncontrolled.swift); and, unless
  /// the task is cancelled already, the step's end can tell whether the step cancelled it.
  func noteMadeReadyInStep(_ job: UnownedJob, task: TaskID, onMainActor: Bool) {
    guard running.runningStep != nil, task != running.runningTask, !(onMainActor && running.runningOnMainActor) else { return }
    lockWatch.stepThatMadeATaskReady = step
    guard trail.unexplored == nil, !taskReader.isCancelled(job) else { return }
    trail.madeReadyInStep.append((job, task))
  }

  /// At the end of a step, notes the first task it made ready and then cancelled.
  func checkCancellationsOfTasksMadeReady() {
    defer { trail.madeReadyInStep.removeAll(keepingCapacity: true) }
    guard trail.unexplored == nil, let (_, task) = trail.madeReadyInStep.first(where: { taskReader.isCancelled($0.job) }) else { return }
    trail.unexplored =
      "step \(step) made task \(tasks.registry[task].info.descriptionWithoutOrigin) ready, then cancelled it: on real threads the task may start "
      + "before the cancellation, an order no schedule has"
  }
}
