// What a timer fired early assumes (see `SchedulerConfiguration.earlyTimerFirings`).
//
// Firing a timer while jobs are ready models those jobs delayed past the timer's deadline, as a
// busy pool or a slow thread delays them: a timeout that fires before the work it guards, even
// work that never sleeps. A task so delayed that goes on to read the clock or to sleep would see
// the delay in its own timing: a debounce's search task would start its 300 ms later, a throttle
// would measure the gap between two elements as longer. Tests of timed code assume their tasks
// are not delayed by hundreds of milliseconds, and a real runtime rarely does so; exploring such
// delays would fail every timed test. So the model keeps the delay only while it is invisible to
// the delayed work's timing: a run in which a delayed task (or a task it created since) reads
// `ContinuousClock.now` or `SuspendingClock.now` or sleeps is cut at that step. It goes on in
// arrival order, offering the strategy no more choices, and its outcome is not judged.

extension DeterministicScheduler {
  /// Marks the tasks whose jobs are ready, held back or waiting for the main actor as delayed
  /// past the timer about to fire early.
  func markTasksDelayedByTimer() {
    for owner in readyInfo.lazy.compactMap(\.owner) { registry[owner].delayedByTimer = true }
    for held in heldBackYields { if let owner = held.info.owner { registry[owner].delayedByTimer = true } }
    for (_, info) in waitingMainActorJobs { if let owner = info.owner { registry[owner].delayedByTimer = true } }
  }

  /// Notes that the running code read the clock or is about to sleep: if it is a task delayed
  /// past a timer fired early, the run is cut here.
  func noteTimingUse() {
    guard earlyFirings > 0, cutAtStep == nil, let task = currentTaskID(), registry[task].delayedByTimer else { return }
    cutAtStep = step
  }
}
