import Synchronization

// What the Effects module's locks and atomics ask of the scheduler whose step runs their caller:
// a scheduling point before each acquire or atomic access, at which other ready jobs may run
// first; the access itself, noted as a touch of the object (`Trace/locks`), so that the
// reduction takes two steps that touch one object as dependent; and, for a lock, which task
// holds it, so that a task that finds it held waits, paused, until it is unlocked.

extension DeterministicScheduler {
  /// The scheduler whose step runs on the calling thread, while its run is under way, or `nil`
  /// for code outside any run (or outside a step: between steps, on a guest's job). Inlined up to
  /// one atomic load, which is all it costs while no run is under way.
  @inlinable
  package static var controllingCallingThread: DeterministicScheduler? {
    guard mayControlCallingThread else { return nil }
    return controllingCallingThreadDuringRuns
  }

  /// Whether any run is under way in the process: `false` means no scheduler controls the calling
  /// thread. One relaxed atomic load, the whole cost of a drop-in's access outside any run, which
  /// keeps everything else (`controllingCallingThreadDuringRuns`) behind one call the caller makes
  /// only when this is `true`.
  @inlinable
  package static var mayControlCallingThread: Bool {
    RuntimeHooks.runsUnderWay.load(ordering: .relaxed) > 0
  }

  @usableFromInline
  package static var controllingCallingThreadDuringRuns: DeterministicScheduler? {
    guard let scheduler = DrivingThread.scheduler, scheduler.isDriving, scheduler.isOnDriverThread, scheduler.running.runningStep != nil
    else { return nil }
    return scheduler
  }

  /// How a controlled acquire went.
  package enum Acquisition {
    /// The calling task holds the lock now.
    case acquired
    /// The lock was held, and the caller asked only to take it if available.
    case unavailable
    /// The run ended while the caller waited: it goes on outside the scheduler's control.
    case uncontrolled
  }

  /// A scheduling point before the running job touches `object`: other ready jobs may run first.
  /// Notes the touch. Returns `false` when the run ended meanwhile.
  package func schedulingPoint(touching object: AnyObject) -> Bool {
    if mayPause, !pauseRunningJob(blockedOn: nil) { return false }
    noteTouch(of: object)
    return true
  }

  /// Takes `lock` for the running task, after a scheduling point; waits, paused, while another
  /// task holds it, unless `onlyIfAvailable`.
  package func acquire(_ lock: ControlledLock, onlyIfAvailable: Bool) -> Acquisition {
    if mayPause, !pauseRunningJob(blockedOn: nil, noting: LockPause(step: step, at: lock, waits: false)) { return .uncontrolled }
    guard let me = currentTaskID() ?? running.runningStep?.owner else { return .uncontrolled }
    while true {
      noteTouch(of: lock)
      guard let holder = lock.holder(inRun: runSerial) else {
        lock.holder = me
        lock.holderRun = runSerial
        return .acquired
      }
      if onlyIfAvailable { return .unavailable }
      if holdsATaskStatusLock() {
        // The code cannot wait here (see `holdsATaskStatusLock`). On real threads it would block
        // until the holder lets go, which is no error; here the run stops after the step, not
        // judged, and the exploration says it could not follow it.
        stopUnjudged(meeting: "task \(tasks.registry[me].info.descriptionWithoutOrigin) waited in a cancellation handler for \(name(of: lock)), held by task "
          + "\(tasks.registry[holder].info.descriptionWithoutOrigin): the runtime runs a handler holding the cancelled task's lock, so the scheduler cannot "
          + "pause it there, and runs that reach such a wait stop, not judged")
        return .acquired
      }
      // Described only if a report needs it: naming the holder may read debug information.
      let lockName = name(of: lock)
      let holderInfo = tasks.registry[holder].info
      tasks.registry[me].waitingOn = { "\(lockName), held by task \(holderInfo)" }
      guard pauseRunningJob(blockedOn: lock, noting: LockPause(step: step, at: lock, waits: true)) else { return .uncontrolled }
    }
  }

  /// Unlocks `lock` for the running task, which must hold it; the tasks waiting for it may go on.
  /// A misuse ends the run once the step is over.
  package func release(_ lock: ControlledLock, fileID: String, line: Int) {
    let me = currentTaskID() ?? running.runningStep?.owner
    noteTouch(of: lock)
    guard let holder = lock.holder(inRun: runSerial), holder == me else {
      let who = me.map { "task \(tasks.registry[$0].info)" } ?? "code outside any task"
      let held = lock.holder(inRun: runSerial).map { "which task \(tasks.registry[$0].info) holds" } ?? "which no task holds (unlocked twice?)"
      conclusion.pendingMisuse = conclusion.pendingMisuse ?? .lockMisused("\(who) unlocked \(name(of: lock)), \(held), at \(fileID):\(line)")
      return
    }
    letGo(of: lock)
  }

  /// Lets go of `lock`, which a task of the run holds: the jobs waiting for it may go on.
  func letGo(of lock: ControlledLock) {
    lock.forget()
    for paused in pausing.pausedJobs where paused.blockedOn === lock {
      paused.blockedOn = nil
      makeReady(paused)
    }
  }

  /// Whether the running job may pause at a scheduling point now: something else could run, and
  /// it holds no lock of the runtime's, nor, where the run follows them, an uncontrolled one
  /// (``SchedulerConfiguration/pausesAtUncontrolledLocks``) that a task that ran meanwhile would
  /// wait for on the run's only running thread: one whose holders the run cannot tell.
  var mayPause: Bool {
    somethingElseCouldRun && !holdsATaskStatusLock() && !(pausesAtLocks && HostThread.current?.holdsOnlyLocksWaitedFor == false)
  }

  /// Whether a job, a timer or a held-back yield could run instead of the running job.
  var somethingElseCouldRun: Bool {
    !queue.readyJobs.isEmpty || !queue.trampolines.isEmpty || !fairYields.held.isEmpty || offersTimer
  }

  /// Notes that the running step touched `object`, numbered like the locks a watching run sees.
  private func noteTouch(of object: AnyObject) {
    noteTouch(at: UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()))
  }

  /// `EffectLock #2 (made at Inbox.swift:12)`: the lock's kind, its number in the trace's locks,
  /// and where the program made it, when known.
  private func name(of lock: ControlledLock) -> String {
    lock.name(number: lockWatch.lockNumbers[UInt(bitPattern: Unmanaged.passUnretained(lock).toOpaque())])
  }
}
