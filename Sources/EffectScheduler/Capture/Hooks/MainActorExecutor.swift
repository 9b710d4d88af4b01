/// A scheduler's stand-in for the main actor's executor.
///
/// On a driver thread the main-executor hook answers with this executor, so code isolated to the
/// main actor runs as the scheduler's jobs, one at a time, on the driver thread: each hop to the
/// main actor is a step the strategy orders like any other. A suspended main-actor task keeps this
/// executor, so it comes back here however it is resumed.
final class MainActorExecutor: SerialExecutor, @unchecked Sendable {
  /// The scheduler owns this executor and outlives every run that uses it.
  unowned(unsafe) let scheduler: DeterministicScheduler

  init(scheduler: DeterministicScheduler) { self.scheduler = scheduler }

  func enqueue(_ job: consuming ExecutorJob) {
    scheduler.enqueue(UnownedJob(job), onMainActor: true)
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }
}

