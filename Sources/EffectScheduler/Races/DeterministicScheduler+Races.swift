import InstrumentationEntryPoints

/// What the scheduler tells its race detection: which task's step an operation belongs to, and
/// each plain access of instrumented code; a race found ends the run after its step.
extension DeterministicScheduler {
  /// Makes the task of the code running now, in the running step, the race detection's current
  /// thread.
  func enterRaceStep() {
    // Spelled out rather than through a key path, which costs a lookup of its metadata a call.
    let thread: Int
    if let task = currentTaskID() ?? running.runningStep?.owner {
      thread = task.rawValue
    } else {
      thread = -1 - step
    }
    // The actor the code runs on, as the runtime tracks it: a task may step onto an idle actor
    // within its own job, with no job of the actor's.
    let actor = UInt(bitPattern: instrumentation_current_executor_identity())
    races.enter(step: step, thread: thread, job: running.stepJob, actor: actor == 0 ? nil : actor)
  }

  /// Checks a plain access of the running step's instrumented code; the first race found ends
  /// the run after the step, reported with both tasks and where in the code each access was.
  func noteAccess(at address: UInt, size: Int, writes: Bool, caller: UInt) {
    guard races.found == nil else { return }
    #if os(Linux) && _pointerBitWidth(_64)
      // The calling thread's stack holds the steps of every task that runs on it, one after another.
      if VisibleLocks.stackOfCallingThread().contains(address) { return }
    #endif
    enterRaceStep()
    races.access(address: address, size: size, writes: writes, caller: caller)
    guard let found = races.found else { return }
    let race = DataRace(first: describe(found.first), second: describe(found.second))
    conclusion.pendingMisuse = conclusion.pendingMisuse ?? .dataRace(race)
  }

  /// The allocator handed out `size` bytes at `address` to the running step: told by step, not
  /// by thread, so the step need not be entered on every allocation.
  func noteAllocation(at address: UInt, size: Int) {
    races.forget(from: address, size: size, inStep: step)
  }

  /// Follows a happens-before mark of the concurrency runtime: an acquire of a task's job joins
  /// the task, whose step is about to begin; anything else is the running code's.
  func noteRuntimeSync(acquires: Bool, at address: UInt) {
    // Most acquires are of what the run never released (a lazy global made in an earlier run).
    if acquires, !races.wasReleased(address) { return }
    enterRaceStep()
    if acquires {
      races.acquire(address, into: tasks.registry.latestTask(at: address)?.rawValue)
    } else {
      races.release(address)
    }
  }

  private func describe(_ access: RaceDetector.Access) -> DataRace.Access {
    let task = races.task(ofThread: access.thread).map { tasks.registry[TaskID(rawValue: $0)].info.description } ?? "a job of no task"
    return DataRace.Access(task: task, writes: access.writes, location: CodeLocation.describe(access.caller), step: access.step)
  }
}
