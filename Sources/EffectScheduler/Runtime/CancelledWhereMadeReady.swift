// A step that makes a task's job ready (starting the task, resuming its continuation) and then,
// before the step ends, cancels that task: on real threads the task may start its job between the
// two, on another thread, and find itself not cancelled yet. One job runs at a time here, from one
// suspension point to the next, so that order is in no schedule: the task's job always begins
// cancelled. The scheduler cannot pause the step at the cancellation, which the runtime makes
// without telling the executor, so it notes the step instead, and an exploration that saw one
// says so and claims no more than it tried (see `Explore`'s summary).

/// A task that a step made ready and then cancelled, before the task could run: see
/// CancelledWhereMadeReady.swift.
package struct CancelledWhereMadeReady: Hashable, Sendable, CustomStringConvertible {
  /// The step.
  package let step: Int
  /// The task, as the trace names it: `#1 unstructured`.
  package let task: String

  /// `step 0 made task #1 unstructured ready, then cancelled it`.
  package var description: String { "step \(step) made task \(task) ready, then cancelled it" }
}

extension DeterministicScheduler {
  /// Notes a task's job made ready by the running step, unless the task is cancelled already, so
  /// that the step's end can tell whether the step cancelled it. A job for the main actor, made
  /// ready by a step on the main actor, could not start before that step ends anyway.
  func noteMadeReadyInStep(_ job: UnownedJob, task: TaskID, onMainActor: Bool) {
    guard runningStep != nil, cancelledWhereMadeReady == nil, task != runningTask, !(onMainActor && runningOnMainActor),
      !taskReader.isCancelled(job)
    else { return }
    madeReadyInStep.append((job, task))
  }

  /// At the end of a step, notes the first task it made ready and then cancelled.
  func checkCancellationsOfTasksMadeReady() {
    defer { madeReadyInStep.removeAll(keepingCapacity: true) }
    guard cancelledWhereMadeReady == nil, let (_, task) = madeReadyInStep.first(where: { taskReader.isCancelled($0.job) }) else { return }
    cancelledWhereMadeReady = CancelledWhereMadeReady(step: step, task: registry[task].info.description)
  }
}
