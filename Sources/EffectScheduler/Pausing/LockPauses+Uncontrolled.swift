import Synchronization

/// Pauses at locks the scheduler does not control (`NSLock`, pthread locks): the pause before
/// one, a wait while a paused job holds it, and the paused holder lent the thread to finish.
extension DeterministicScheduler {
  /// Before the calling thread, running a step of this scheduler's run, makes `acquire` of the
  /// program's lock: a scheduling point, where the run pauses at such locks and the job holds none
  /// but the program's, whose holders the run can tell.
  /// Returns whether the acquire is a controlled one (see ``LockPauses/pauseBefore(_:kind:waits:)``).
  /// After the pause, or without one (for a job that holds other such locks, or in a run that does
  /// not pause at them, where a job may still have paused in the lock's critical section at a
  /// drop-in's scheduling point), a job that a paused job of the run would block waits for it,
  /// paused, as for a drop-in held, unless it only tries the lock (not `waits`); in a
  /// cancellation handler, which cannot pause, it lends the holder its turn.
  func pauseBeforeUncontrolledLock(_ acquire: LockAcquire, waits: Bool) -> Bool {
    guard isDriving, isOnDriverThread, running.runningStep != nil, let host = HostThread.current else { return false }
    // Pausing between critical sections, a step's first one, taken holding no such lock, runs
    // where the step does: moved to the step's start, it would order the same. It counts as
    // controlled, so no claim rests on it having run whole with the code around it. Not after the
    // step made a task ready: that task may run before it, and the step's start is before it.
    let holdsNone = pausesBetweenSections && host.heldLocks.isEmpty
    let firstOfTheStep = holdsNone && lockWatch.stepThatTookAProgramLock != step && lockWatch.stepThatMadeATaskReady != step
    let mayPauseHere = pausesAtLocks && host.holdsOnlyLocksWaitedFor || holdsNone && !firstOfTheStep
    // Without a scheduling point here, there is only a lock a paused job holds to wait for.
    guard mayPauseHere || (waits && pausedJobBlocking(acquire) != nil), isProgramLock(at: acquire.address) else { return firstOfTheStep }
    guard !holdsATaskStatusLock() else {
      if waits { lendPausedHolder(blocking: acquire) }
      return false
    }
    // The rest of `mayPause` holds: checked above.
    if mayPauseHere, somethingElseCouldRun,
      !pauseRunningJob(blockedOn: nil, noting: LockPause(step: step, atLockAt: acquire.address, kind: acquire.lockKind, waits: false))
    {
      return true
    }
    if waits { waitWhileAPausedJobBlocks(acquire) }
    return mayPauseHere || firstOfTheStep
  }

  /// Waits, paused, while a paused job of the run holds the lock of `acquire` in a way that
  /// blocks it: the holder paused in its critical section, at a scheduling point or waiting for a
  /// drop-in or a lock another task holds. Taking the lock then would block the run's only
  /// running thread for good; waiting on it as on a drop-in, the job is ready again once the
  /// holder lets go, and a cycle of such waits is a deadlock that names the locks and their
  /// holders. Returns when the run ended meanwhile too: the job then goes on outside the
  /// scheduler's control.
  func waitWhileAPausedJobBlocks(_ acquire: LockAcquire) {
    #if os(Linux) && _pointerBitWidth(_64)
      while let holder = pausedJobBlocking(acquire)?.task, let me = currentTaskID() ?? running.runningStep?.owner, holder != me {
        let host = HostThread.current
        host?.waitsFor = acquire
        let goesOn = waitPaused(for: holder, holdingWordAt: acquire.address, kind: acquire.lockKind, aKind: acquire.aLock, waiter: me)
        host?.waitsFor = nil
        guard goesOn else { return }
      }
    #endif
  }

  /// Waits, paused, until `holder`, a paused job's task, lets go of the word or lock at `address`,
  /// of `kind` (`aKind` with its article), which the scheduler does not control: a stand-in
  /// lock, held by `holder`, stands for it, so that a cycle of such waits is a deadlock that names
  /// them. Returns `false` when the run ended meanwhile.
  func waitPaused(for holder: TaskID, holdingWordAt address: UInt, kind: String, aKind: String, waiter me: TaskID) -> Bool {
    let standIn = lockWatch.uncontrolledLockStandIns[address] ?? ControlledLock(kind: { kind })
    lockWatch.uncontrolledLockStandIns[address] = standIn
    standIn.holder = holder
    standIn.holderRun = runSerial
    let number = lockWatch.lockNumbers[address].map { " #\($0)" } ?? ""
    // Described only if a report needs it: naming the holder may read debug information.
    let holderInfo = tasks.registry[holder].info
    tasks.registry[me].waitingOn = { "\(aKind)\(number) the scheduler does not control, held by task \(holderInfo)" }
    return pauseRunningJob(blockedOn: standIn, noting: LockPause(step: step, atLockAt: address, kind: kind, waits: true))
  }

  /// In a cancellation handler, which cannot pause, before the handler makes `acquire`: if a
  /// paused job that is ready to go on blocks it, lets that job go on, outside the scheduler's
  /// control, until it lets go of the lock (``parkAfterLentRun(_:)``), and waits for that;
  /// otherwise taking it would block the run's only running thread for good. The job's steps
  /// meanwhile are no steps of the run, so the run stops after this step, not judged.
  func lendPausedHolder(blocking acquire: LockAcquire) {
    let address = acquire.address
    guard let holder = pausedJobBlocking(acquire), holder.blockedOn == nil else { return }
    // Words for the summary, made while the search runs: without where the tasks were created.
    let waiter = (currentTaskID() ?? running.runningStep?.owner).map { "task \(tasks.registry[$0].info.descriptionWithoutOrigin)" } ?? "a job"
    let holderName = holder.task.map { "task \(tasks.registry[$0].info.descriptionWithoutOrigin)" } ?? "a job"
    let number = lockWatch.lockNumbers[address].map { " #\($0)" } ?? ""
    stopUnjudged(meeting: "\(waiter) waited in a cancellation handler for \(acquire.aLock)\(number) that \(holderName) held, paused in its "
      + "critical section: the runtime runs a handler holding the cancelled task's lock, so the scheduler cannot pause it there; the "
      + "holder went on outside the scheduler's control until it let go, and runs that reach such a wait stop, not judged")
    let me = hostOfCallingThread()
    lockWatch.lentTurnWaiter = me
    LockPauses.lentTurns.add(1, ordering: .relaxed)
    holder.host.goesOnUntilRelease = address
    holder.host.wake(.goOnUntilRelease)
    _ = me.park()
    LockPauses.lentTurns.subtract(1, ordering: .relaxed)
    lockWatch.lentTurnWaiter = nil
  }

  /// On the thread of a paused job lent to a cancellation handler, once it let go of the lock
  /// the handler waits for (or its job ended first): tells the handler, and parks as the paused
  /// job it still is, until lent again or let go at the run's end.
  func parkAfterLentRun(_ host: HostThread) {
    LockPauses.pausedJobs.add(1, ordering: .relaxed)
    lockWatch.lentTurnWaiter?.wake(.resume)
    let order = host.park()
    LockPauses.pausedJobs.subtract(1, ordering: .relaxed)
    switch order {
    case .goOnUntilRelease:
      return
    case .resume, .drive:
      activeThread.store(host.identity, ordering: .relaxed)
    case .runIsOver:
      host.isOrphan = true
      DrivingThread.set(nil)
    }
  }

  /// Notes that the run met `what`, a wait inside a cancellation handler that the scheduler
  /// cannot pause, unless it met something such before, and stops it after this step, not judged.
  func stopUnjudged(meeting what: @autoclosure () -> String) {
    if trail.unexplored == nil { trail.unexplored = what() }
    if time.cutAtStep == nil { time.cutAtStep = step }
  }
}
