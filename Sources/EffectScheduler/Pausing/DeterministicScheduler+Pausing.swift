import InstrumentationEntryPoints
// How a job pauses in the middle of its synchronous code and goes on later.
//
// A job runs on the thread that drives the loop, called from the loop. To pause it at a
// controlled lock or atomic while other jobs run, its thread keeps it and parks, and the loop goes
// on on another thread: a parked thread of the run whose loop is at the end of a step, or a pool
// thread lent to the scheduler. When the strategy picks the paused job, the thread driving hands
// its place to the job's thread and parks in turn, as one more thread at the end of a step. Every
// thread of a run is thus, at any time, parked at the end of a step, parked in a paused job, or
// the one thread that runs; which one ends a step is immaterial, as the loop keeps its state in
// the scheduler. A run without controlled locks or atomics never leaves its first thread.
//
// When the run ends, threads parked at the end of a step leave the loop, and paused jobs go on,
// one at a time and outside the scheduler's control, until their jobs end (`OrphanedJobs`). The
// first thread, whose caller waits for the run's ending, gets it once its own job, if paused, has
// ended.

extension DeterministicScheduler {
  /// The host object of the calling thread, which must be one of the run's.
  func hostOfCallingThread() -> HostThread {
    if let host = HostThread.current { return host }
    let host = HostThread()
    HostThread.setCurrent(host)
    pausing.originalHost = host
    return host
  }

  /// Pauses the running job at a scheduling point, ready to go on or, with `lock`, waiting for
  /// it, and parks its thread until a strategy picks it. Returns `false` when the run ended
  /// meanwhile: the job then goes on outside the scheduler's control. `pause` says at which lock
  /// the job pauses, if at one, for the trace.
  func pauseRunningJob(blockedOn lock: ControlledLock?, noting pause: LockPause? = nil) -> Bool {
    // The blocks the job was handed so far belong to this step, not to the one it goes on in.
    instrumentation_tell_pending_allocations()
    instrumentation_library_enter()
    defer { instrumentation_library_exit() }
    guard let info = running.runningStep else { return true }
    if let pause { lockWatch.lockPauses.append(pause) }
    // A plain task paused at a lock in its first step has handed nothing over: a deadlock report
    // would know it only as `unstructured`.
    learnRunningTaskName()
    let host = hostOfCallingThread()
    let task = currentTaskID() ?? info.owner
    let actorTasks = actors.runningJob
    let paused = PausedJob(
      host: host, info: info, task: task, runningTask: running.runningTask, runningRuntimeID: running.runningRuntimeID, runningJob: running.runningJob,
      runningOnMainActor: running.runningOnMainActor, watchedCompletion: tasks.witnessBaseline != nil, actor: actorTasks == nil ? nil : running.runningActor,
      actorTasks: actorTasks)
    paused.handOff = pausing.pausingAtHandOff
    paused.actorAddress = actors.runningAddress
    pausing.pausingAtHandOff = false
    if actorTasks != nil {
      endActorJob()
    } else if let id = info.task {
      endSegment(of: id, as: .paused)
    }
    tasks.witnessBaseline = nil
    running.runningStep = nil
    // Kept by the paused job, and put back when it goes on: the steps between run other jobs, and
    // an actor's job, which sets no running task, would take this one for theirs.
    running.runningTask = nil
    jobRecord.end()
    if info.isOnMainActor { keepMainActor() }
    paused.blockedOn = lock
    pausing.pausedJobs.append(paused)
    if lock == nil { makeReady(paused) }
    pauseCount.add(1, ordering: .relaxed)
    running.stepToEnd = info
    let next = pausing.idleHosts.popLast() ?? HostThread.lend(to: self)
    // Counted before the loop goes on elsewhere, whose jobs' locks may be this job's.
    LockPauses.pausedJobs.add(1, ordering: .relaxed)
    next.wake(.drive)
    let order = host.park()
    LockPauses.pausedJobs.subtract(1, ordering: .relaxed)
    switch order {
    case .resume, .drive:
      activeThread.store(host.identity, ordering: .relaxed)
      return true
    case .runIsOver:
      host.isOrphan = true
      DrivingThread.set(nil)
      return false
    case .goOnUntilRelease:
      // Lent to a cancellation handler: the job goes on outside the scheduler's control until it
      // lets go of the lock, then parks again (LockPauses.swift).
      return false
    }
  }

  /// Pauses the actor's job under way, which has just handed a job over, if the actor has more
  /// work queued and no task's code runs: a task left the actor, or completed on it and woke its
  /// waiter. The job handed over, run by another thread, goes on alongside the rest of the
  /// actor's queue, which the job would otherwise run within the same step; a task made isolated
  /// to the actor, say, would start there unseen, before the task that made it could cancel it.
  /// Where a task's code runs (a continuation resumed in an actor's method), the job does not
  /// pause: the code may hold a lock that the job handed over takes.
  func pauseDrainIfItGoesOn(address: UInt) {
    guard taskReader.currentRuntimeTaskID() == nil, ActorQueue.hasQueuedJobs(actorAt: address), !holdsATaskStatusLock() else { return }
    // The tasks listed as queued that still are did not run in this part of the job.
    // Told apart by marks, not by looks through the lists: thousands of tasks may wait on the actor.
    if !actors.listedFromQueue.isEmpty {
      _ = queuedTasks(onActorAt: address, besides: [])
      actors.listedNotSeen.removeAll()
      for task in actors.listedFromQueue { _ = actors.listedNotSeen.insert(task) }
      for task in actors.seenRunning { actors.listedNotSeen.remove(task) }
      let (stillQueued, notSeen) = (actors.listed, actors.listedNotSeen)
      actors.runningJob?.removeAll { stillQueued.contains($0) && notSeen.contains($0) }
    }
    pausing.pausingAtHandOff = true
    _ = pauseRunningJob(blockedOn: nil)
  }

  /// Whether the calling thread holds the status lock of a task of the run. The runtime runs a
  /// cancellation handler holding the cancelled task's: a job paused there would keep every
  /// thread that touches that task waiting, the paused task's own among them, so it must not pause.
  func holdsATaskStatusLock() -> Bool {
    #if os(Linux) && _pointerBitWidth(_64)
      let me = hostOfCallingThread().kernelID
      for index in tasks.registry.records.indices where !tasks.registry[TaskID(index)].completed {
        if LockHolders.ofMutex(at: tasks.registry[TaskID(index)].address + VisibleLocks.statusLockOffset) == me { return true }
      }
    #endif
    return false
  }

  /// Puts the stand-in of a paused job among the ready jobs.
  func makeReady(_ paused: PausedJob) {
    queue.readyJobs.append(paused.standIn)
    queue.readyInfo.append(paused.info)
    countQueued(paused.info, 1)
  }

  /// Keeps the main actor for a job of its that paused: the main-actor job made ready when it was
  /// picked waits again, first in line, as the main actor runs one job at a time.
  private func keepMainActor() {
    if let index = queue.readyInfo.firstIndex(where: \.isOnMainActor) {
      queue.waitingMainActorJobs.insert((queue.readyJobs.remove(at: index), queue.readyInfo.remove(at: index)), at: 0)
      queue.keptSinceLastChoice = nil
    }
    queue.mainActorJobIsReady = true
  }

  /// The paused job `job` stands in for, if it is one.
  func pausedJob(standingIn job: UnownedJob) -> PausedJob? {
    guard !pausing.pausedJobs.isEmpty else { return nil }
    let address = unsafeBitCast(job, to: UnsafeRawPointer.self)
    return pausing.pausedJobs.first { Unmanaged.passUnretained($0).toOpaque() == UnsafeMutableRawPointer(mutating: address) }
  }

  /// Begins the step in which `paused` goes on, hands the calling thread's place to the job's
  /// thread and parks; returns why it was woken.
  func resume(_ paused: PausedJob) -> HostThread.Order {
    pausing.pausedJobs.removeAll { $0 === paused }
    let info = paused.info
    running.ownerOfLastJob = info.owner
    if let tasks = paused.actorTasks {
      actors.runningJob = tasks
      actors.runningAddress = paused.actorAddress
      var scheduledBy = info.scheduledBy
      if paused.handOff, let address = paused.actorAddress {
        // The job goes on with the actor's queue, the first task in it first.
        let queued = queuedTasks(onActorAt: address, besides: [])
        scheduledBy = queued.first
        actors.runningJob = strategy?.listsQueuedActorWork == true ? queued : Array(queued.prefix(1))
        actors.listedFromQueue = strategy?.listsQueuedActorWork == true ? Array(queued.dropFirst()) : []
        actors.seenRunning = []
        actors.wentOnAfterHandOff = true
      }
      recordActorJobBegins(actor: paused.actor, scheduledBy: scheduledBy, fromOutside: false)
    } else if let id = info.task {
      if let job = paused.runningJob { noteCancellation(of: id, job: job) }
      record(id, .resumed, onMainActor: info.isOnMainActor)
    }
    if let task = paused.task { tasks.registry[task].waitingOn = nil }
    running.runningTask = paused.runningTask
    running.runningRuntimeID = paused.runningRuntimeID
    running.runningJob = paused.runningJob
    running.runningOnMainActor = paused.runningOnMainActor
    running.runningStep = info
    jobRecord.begin(step: step, task: info.owner)
    // The count the watch compares with has moved with the steps between.
    tasks.witnessBaseline = paused.watchedCompletion ? activeRun?.referenceCount ?? 0 : nil
    let me = hostOfCallingThread()
    pausing.idleHosts.append(me)
    paused.host.wake(.resume)
    let order = me.park()
    if order == .drive { activeThread.store(me.identity, ordering: .relaxed) }
    return order
  }

  /// Goes on with the loop on a pool thread lent to this scheduler, from the end of the step
  /// another thread paused in.
  func driveAsLentThread(_ host: HostThread) {
    activeThread.store(host.identity, ordering: .relaxed)
    DrivingThread.set(self)
    _ = driveLoop(endingStepOf: running.stepToEnd)
    DrivingThread.set(nil)
  }

  /// Whether a job that ran on the calling thread was paused and let go when its run ended: the
  /// thread then no longer belongs to the run. Checked only when some job paused meanwhile.
  func jobWasOrphaned(pausesBefore: Int) -> Bool {
    guard pauseCount.load(ordering: .relaxed) != pausesBefore, let host = HostThread.current else { return false }
    if host.goesOnUntilRelease != nil {
      // Lent to a cancellation handler, the job ended before it let go of the mutex: the thread
      // parks as if it had (LockPauses.swift).
      host.goesOnUntilRelease = nil
      parkAfterLentRun(host)
    }
    guard host.isOrphan else { return false }
    host.isOrphan = false
    let orphans = host.orphans
    host.orphans = nil
    LockPauses.forgetSkippedAcquires(of: host)
    orphans?.passOn()
    return true
  }

  /// What the calling thread's loop returns once the run is over for it: the ending on the first
  /// thread, once the paused jobs let go have ended or had their time; nothing on a lent thread.
  func leaveTheLoop() -> RunEnding? {
    guard HostThread.current === pausing.originalHost, let ending = conclusion.concludedEnding else { return nil }
    conclusion.concludedEnding = nil
    activeThread.store(ThreadIdentity.current, ordering: .relaxed)
    conclusion.orphanedJobs?.waitForTheEnd(timeout: .seconds(1))
    conclusion.orphanedJobs = nil
    return ending
  }

  /// Ends the run with `ending` on the calling thread: the other threads of the run leave the
  /// loop or, paused, go on outside the scheduler's control. Returns the ending on the run's first
  /// thread, and `nil` on a lent thread, whose part is over.
  func conclude(_ ending: RunEnding) -> RunEnding? {
    let onFirstThread = HostThread.current === pausing.originalHost || pausing.originalHost == nil
    if pausing.pausedJobs.isEmpty, pausing.idleHosts.isEmpty, onFirstThread { return ending }
    for paused in pausing.pausedJobs {
      if let task = paused.task { tasks.registry[task].waitingOn = nil }
    }
    let orphans = OrphanedJobs(pausing.pausedJobs.map(\.host))
    pausing.pausedJobs.removeAll()
    let idle = pausing.idleHosts
    pausing.idleHosts.removeAll()
    conclusion.concludedEnding = ending
    conclusion.orphanedJobs = orphans
    for host in idle { host.wake(.runIsOver) }
    if pausing.firstThreadWaitsApart { pausing.originalHost?.wake(.runIsOver) }
    orphans.passOn()
    if onFirstThread {
      conclusion.concludedEnding = nil
      orphans.waitForTheEnd(timeout: .seconds(1))
      conclusion.orphanedJobs = nil
      return ending
    }
    return nil
  }
}
