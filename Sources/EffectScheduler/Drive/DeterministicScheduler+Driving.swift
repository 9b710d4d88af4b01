import InstrumentationEntryPoints

/// How a driven run ended.
enum RunEnding {
  case finished(unfinished: [TaskInfo])
  case failed(SchedulerError.Reason)
}

extension DeterministicScheduler {
  /// Runs ready jobs one at a time until the root task has completed and no job is ready, or until
  /// the run has to stop. Must be called on the thread that made the scheduler.
  func drive() -> RunEnding {
    watchedHiddenAccesses = strategy!.watchesHiddenAccesses
    races.recordsTouches = watchedHiddenAccesses && trail.listened
    lockWatch.watchedLocks = watchedHiddenAccesses || strategy!.watchesLocks || followsHeldLocks
    if HostThread.current == nil { HostThread.setCurrent(HostThread()) }
    if followsHeldLocks { HostThread.current?.heldLocks.removeAll() }
    HostThread.current?.readLocks.removeAll()
    pausing.originalHost = HostThread.current
    runSerial = RunSerial.next()
    if pausesAtLocks { return driveOnAnotherThread() }
    // The first thread leaves the loop only with the run's ending.
    return driveLoop(endingStepOf: nil)!
  }

  /// ``drive()`` where the run pauses at uncontrolled locks: the first thread, whose caller waits
  /// for the run's ending, runs no job. It lends the loop to a pool thread, and parks until the
  /// run is over. Jobs that deadlock over such locks are each paused holding a real mutex that
  /// another needs; let go when the run ends, they would block their threads for good, so they
  /// stay parked (``OrphanedJobs``), and a first thread among them would never return.
  private func driveOnAnotherThread() -> RunEnding {
    pausing.firstThreadWaitsApart = true
    running.stepToEnd = nil
    HostThread.lend(to: self).wake(.drive)
    while pausing.originalHost!.park() != .runIsOver {}
    pausing.firstThreadWaitsApart = false
    return leaveTheLoop()!
  }

  /// The drive loop, entered on the run's first thread or, after a step that paused, on another
  /// (see DeterministicScheduler+Pausing.swift). Returns the run's ending on the first thread, and
  /// `nil` on another once the run is over for it.
  func driveLoop(endingStepOf stepInfo: ReadyJob?) -> RunEnding? {
    let nextJob = strategy!.nextJob
    let watchesHiddenAccesses = watchedHiddenAccesses
    if let stepInfo, let ending = endStep(stepInfo, watchesHiddenAccesses: watchesHiddenAccesses) { return ending }
    driving: while true {
      if !mailbox.isEmpty { collectMail() }
      runTrampolines()
      // Blocks handed out between steps are no step's: the handler would pass over each.
      instrumentation_discard_pending_allocations()
      if queue.readyJobs.isEmpty {
        if !fairYields.held.isEmpty {
          // Time passes while a task spins; otherwise the spinning tasks go on.
          if !time.timers.isEmpty, mailbox.expectedFromOutside == 0 { advanceClock() } else { releaseAllYields() }
          continue
        }
        if rootCompleted, !waitsForLeftTasks() { return conclude(finish()) }
        if let whenIdle, whenIdle() { continue }
        // Nothing is ready, so time moves on to the next wake-up, unless the test machinery has
        // announced work it will hand back: that comes first, as it takes no time.
        if !time.timers.isEmpty, mailbox.expectedFromOutside == 0 {
          advanceClock()
          continue
        }
        // Work announced by the test machinery comes back without fail, so it is waited for
        // without a time limit; anything else gets the configured timeout. A wake-up without a
        // job (an announcement withdrawn, or a signal given for a job already collected) sends
        // the loop round to reconsider; signals given meanwhile count as one, so the wait still
        // ends about one timeout after the last job arrived.
        let announced = mailbox.expectedFromOutside > 0
        // Nothing from outside can end a wait on another task of the run: no use waiting. When
        // nothing outside took part in the run, only a thread could, and only while it lives.
        if !announced, nothingOutsideCanEndTheWaits() { return conclude(abandon(stuckReason(waitsAreInside: true))) }
        if !announced, nothingOutsideTookPart() {
          if waitWhileThreadsOfTheRunLive() { continue driving }
          return conclude(abandon(stuckReason()))
        }
        switch mailbox.waitForMail(timeout: announced ? nil : configuration.outsideWorldTimeout) {
        case .mail, .wokenUp: continue
        case .timedOut: if mailbox.expectedFromOutside > 0 { continue }
        }
        return conclude(abandon(stuckReason()))
      }
      if let rootCompletedInStep = tasks.rootCompletedInStep, step - rootCompletedInStep >= Self.stepsForLeftTasks, waitsForLeftTasks() {
        return conclude(abandon(leakReason(stillRunningAfter: step - rootCompletedInStep)))
      }
      guard step < configuration.maxSteps else {
        return conclude(
          abandon(.stepLimitExceeded(limit: configuration.maxSteps, fairAfter: configuration.stepsBeforeFairness)))
      }
      // The choice to fire a timer, due or early, is offered last, for the strategy's pick only.
      let offersTimer = offersTimer
      if offersTimer {
        queue.readyInfo.append(.timer)
        if hasTimerDue { noteTimersDue() }
      }
      let fair = step >= stepsBeforeFairness
      let picked = Result { try fair ? pickFairly { try nextJob($0, $1, nil) } : nextJob(queue.readyInfo, step, queue.keptSinceLastChoice) }
      if offersTimer { queue.readyInfo.removeLast() }
      queue.keptSinceLastChoice = nil
      let position: Int
      switch picked {
      case .success(let picked): position = picked
      case .failure(let divergence as ReplayDivergence): return conclude(abandon(.diverged(divergence)))
      case .failure(let error): return conclude(abandon(.strategyFailed(String(describing: error))))
      }
      if offersTimer, position == queue.readyJobs.count {
        if !fair { queue.keptSinceLastChoice = queue.readyInfo.count }
        fireTimer()
        continue
      }
      guard queue.readyJobs.indices.contains(position) else {
        return conclude(
          abandon(.strategyFailed("it picked position \(position) among \(queue.readyJobs.count + (offersTimer ? 1 : 0)) ready jobs")))
      }
      let job = queue.readyJobs.remove(at: position)
      let info = queue.readyInfo.remove(at: position)
      countQueued(info, -1)
      if !fair { queue.keptSinceLastChoice = queue.readyInfo.count }
      trail.choices.append(ScheduleChoice(picking: info, at: position))
      if info.isOnMainActor { mainActorJobWasPicked() }
      if time.tracksStepStarts { time.stepStartedAt = RealTime.now }
      if let paused = pausedJob(standingIn: job) {
        switch resume(paused) {
        case .drive:
          if let ending = endStep(running.stepToEnd!, watchesHiddenAccesses: watchesHiddenAccesses) { return ending }
        case .runIsOver, .resume, .goOnUntilRelease:
          return leaveTheLoop()
        }
        continue
      }
      guard run(job, info) else { return leaveTheLoop() }
      if let ending = endStep(info, watchesHiddenAccesses: watchesHiddenAccesses) { return ending }
    }
  }

  /// What the loop does once a step has ended, on whichever thread goes on with it; the run's
  /// ending, when the step ends it.
  private func endStep(_ info: ReadyJob, watchesHiddenAccesses: Bool) -> RunEnding?? {
    if watchesHiddenAccesses { recordCancellationsOfThisStep() }
    if !trail.madeReadyInStep.isEmpty { checkCancellationsOfTasksMadeReady() }
    if let owner = info.owner { fairYields.noteStep(step, of: owner) }
    if !lockWatch.heldWords.isEmpty { letGoOfWordsReleased() }
    step += 1
    if let cut = time.cutAtStep { return .some(conclude(stopCutRun(at: cut))) }
    if let misuse = conclusion.pendingMisuse {
      conclusion.pendingMisuse = nil
      return .some(conclude(abandon(misuse)))
    }
    if !fairYields.held.isEmpty { releaseYields(afterStepOf: info.owner) }
    return nil
  }

  /// Runs the trampolines enqueued since the last step, in order. They are not steps: all they do
  /// is put the task they resume at the back of the ready jobs, as `Task.yield()` promises, so
  /// giving the strategy a choice over them would only double the schedules to explore.
  private func runTrampolines() {
    if queue.trampolines.isEmpty { return }
    var next = 0
    fairYields.resumingYields = true
    while next < queue.trampolines.count {
      queue.trampolines[next].runSynchronously(on: executor)
      next += 1
    }
    fairYields.resumingYields = false
    queue.trampolines.removeAll(keepingCapacity: true)
  }

  private func collectMail() {
    for mail in mailbox.collect() { admit(mail.job, fromOutside: true, onMainActor: mail.onMainActor) }
  }

  /// Runs one job as a step. Returns `false` when the job paused and its run ended meanwhile: the
  /// calling thread then no longer belongs to the run.
  private func run(_ job: UnownedJob, _ info: ReadyJob) -> Bool {
    if info.arrivedFromOutside { trail.outsideSteps.append(step) }
    RuntimeHooks.reclaimEnqueueHook()
    running.ownerOfLastJob = info.owner
    running.runningStep = info
    running.stepJob = UInt(bitPattern: unsafeBitCast(job, to: UnsafeRawPointer.self))
    jobRecord.begin(step: step, task: info.owner)
    let pausesBefore = pauseCount.load(ordering: .relaxed)
    guard let id = info.task else {
      beginActorJob(job, info)
      // A task that ends on the actor completes within the actor's job; it is most likely the one
      // that stepped onto the actor.
      let watched = info.scheduledBy.flatMap { watchCompletion(of: $0) ? $0 : nil }
      // A main-actor job that is no task, such as a main-actor class's isolated deinit, runs where
      // the main actor's code expects to be.
      running.runningOnMainActor = info.isOnMainActor
      runSynchronously(job, onMainActor: info.isOnMainActor)
      running.runningOnMainActor = false
      if jobWasOrphaned(pausesBefore: pausesBefore) { return false }
      jobRecord.end()
      running.runningStep = nil
      endActorJob()
      if let watched, watchedTaskCompleted() {
        tasks.registry[watched].completed = true
        record(watched, .completed)
      }
      if !tasks.heldTasksRunning.isEmpty { recordHeldTasksCompleted() }
      return true
    }
    noteCancellation(of: id, job: job)
    noteFirstJobSinceDelay(of: id)
    record(
      id, tasks.registry[id].segments == 0 ? .started : .resumed, fromOutside: info.arrivedFromOutside,
      onMainActor: info.isOnMainActor)
    tasks.registry[id].waitingOn = nil
    let watched = watchCompletion(of: id)
    running.runningTask = id
    runTaskJob(job, runtimeID: tasks.registry.runtimeID(of: id), onMainActor: info.isOnMainActor)
    if jobWasOrphaned(pausesBefore: pausesBefore) { return false }
    jobRecord.end()
    running.runningStep = nil
    running.runningTask = nil
    if watched, watchedTaskCompleted(), !tasks.registry[id].completed { tasks.registry[id].completed = true }
    if tasks.registry[id].held, ExecutorAdoption.hasCompleted(taskAt: tasks.registry[id].address) { tasks.registry[id].completed = true }
    endSegment(of: id, as: tasks.registry[id].completed ? .completed : .suspended)
    return true
  }

  /// Records that `id`'s task was cancelled, if its job says so and the scheduler did not know.
  func noteCancellation(of id: TaskID, job: UnownedJob) {
    guard !tasks.registry[id].cancelled, taskReader.isCancelled(job) else { return }
    tasks.registry[id].cancelled = true
    record(id, .cancelled)
  }

  /// Ends the segment of `id`'s task that ran in this step, as `kind` says it ended.
  func endSegment(of id: TaskID, as kind: TraceEvent.Kind) {
    tasks.registry[id].segments += 1
    tasks.registry[id].lastStep = step
    record(id, kind)
    tasks.registry[id].lastJobEnd = trail.events.count - 1
  }

  /// Starts watching `task` for completion during the job about to run, if only its references to
  /// ``activeRun`` can tell: a plain unstructured task not yet completed, and not held (whose
  /// status says). Structured children copy no task-local values, and the root and `Task.effect`
  /// tasks say when they complete. Returns whether it watches.
  private func watchCompletion(of task: TaskID) -> Bool {
    guard tasks.registry[task].info.kind == .unstructured, !tasks.registry[task].completed, !tasks.registry[task].held else { return false }
    tasks.witnessBaseline = activeRun?.referenceCount ?? 0
    return true
  }

  /// Stops watching, and returns whether the watched task completed during the job.
  private func watchedTaskCompleted() -> Bool {
    defer { tasks.witnessBaseline = nil }
    guard let witnessBaseline = tasks.witnessBaseline else { return false }
    return (activeRun?.referenceCount ?? 0) == witnessBaseline - 1
  }

  /// Runs `job` with the scheduler as its task executor, isolated to the main actor's stand-in
  /// when it is a main-actor job.
  private func runSynchronously(_ job: UnownedJob, onMainActor: Bool) {
    if onMainActor {
      job.runSynchronously(isolatedTo: mainActorExecutor.asUnownedSerialExecutor(), taskExecutor: executor)
    } else {
      job.runSynchronously(on: executor)
    }
    // The blocks the job's code was handed since its last operation, in this step (see
    // Allocations.c): on the thread that ran it, which goes on here once the job is done.
    instrumentation_tell_pending_allocations()
  }

  /// Runs a task's job, and with it the hops the task makes to the global executor on the way
  /// (see ``takeGlobalJob(_:)``).
  func runTaskJob(_ job: UnownedJob, runtimeID: UInt64, onMainActor: Bool) {
    running.runningRuntimeID = runtimeID
    running.runningJob = job
    running.runningOnMainActor = onMainActor
    runSynchronously(job, onMainActor: onMainActor)
    while let hop = running.selfHop {
      running.selfHop = nil
      running.runningOnMainActor = false
      hop.runSynchronously(on: executor)
      instrumentation_tell_pending_allocations()
    }
    running.runningRuntimeID = 0
    running.runningJob = nil
  }

  func record(_ task: TaskID?, _ kind: TraceEvent.Kind, fromOutside: Bool = false, onMainActor: Bool = false) {
    append(RecordedEvent(step: step, task: task, kind: kind, fromOutside: fromOutside, onMainActor: onMainActor))
  }

  /// Adds an event to the trace and folds it into the trace's fingerprint, which tells traces
  /// apart far more cheaply than hashing them whole.
  func append(_ event: RecordedEvent) {
    trail.events.append(event)
    foldIntoFingerprint(event.packed)
  }

  func foldIntoFingerprint(_ value: UInt64) {
    trail.fingerprint = (trail.fingerprint ^ value) &* 0x100_0000_01B3
  }

  // MARK: Ending a run

}
