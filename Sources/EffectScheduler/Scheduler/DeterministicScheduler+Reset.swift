import Synchronization

/// Making the scheduler ready for another run: every per-run fact cleared, and what a cut run
/// held released.
extension DeterministicScheduler {
  /// Lets go of what a run cut short recorded: its record has a copy of its own, and the run's
  /// tasks, which stay suspended for good (see TimingAssumption.swift), keep this scheduler
  /// alive, so each cut run would keep its storage too. Nothing runs on this scheduler again:
  /// its mailbox drops what arrives, and what a task asks of it off its run finds it not driving.
  func releaseStorageOfCutRun() {
    events = []
    choices = []
    registry = TaskRegistry()
    actors = RunActors()
    readyJobs = []
    readyInfo = []
    trampolines = []
    fairYields = YieldFairness()
    notes = []
    lockPauses = []
    lockTouches = []
    lockNumbers = [:]
    uncontrolledLockStandIns = [:]
    taskReads = []
    clockAdvances = []
    timedSteps = []
    timersSet = []
    dueTimerFirings = []
    dueTimerOffers = []
    madeReadyInStep = []
    outsideSteps = []
  }

  /// Makes a scheduler whose run ended cleanly ready for another run, keeping its storage.
  func reset(configuration: SchedulerConfiguration) {
    self.configuration = configuration
    readyJobs.removeAll(keepingCapacity: true)
    readyInfo.removeAll(keepingCapacity: true)
    if !waitingMainActorJobs.isEmpty { waitingMainActorJobs.removeAll(keepingCapacity: true) }
    mainActorJobIsReady = false
    trampolines.removeAll(keepingCapacity: true)
    fairYields.removeAll()
    registry.removeAll()
    events.removeAll(keepingCapacity: true)
    choices.removeAll(keepingCapacity: true)
    step = 0
    fingerprint = Self.fingerprintSeed
    runningTask = nil
    ownerOfLastJob = nil
    actors.removeAll()
    rootCompletedInStep = nil
    stepThatTookAProgramLock = -1
    whenIdle = nil
    if !ownedRuntimeIDs.isEmpty { ownedRuntimeIDs.removeAll(keepingCapacity: true) }
    timers.removeAll()
    timerSequence = 0
    virtualNow = .zero
    earlyFirings = 0
    cutAtStep = nil
    if !timedSteps.isEmpty { timedSteps.removeAll(keepingCapacity: true) }
    if !timersSet.isEmpty { timersSet.removeAll(keepingCapacity: true) }
    if !dueTimerFirings.isEmpty { dueTimerFirings.removeAll(keepingCapacity: true) }
    if !dueTimerOffers.isEmpty { dueTimerOffers.removeAll(keepingCapacity: true) }
    if !madeReadyInStep.isEmpty { madeReadyInStep.removeAll(keepingCapacity: true) }
    unexplored = nil
    issueRecorded = nil
    if !clockAdvances.isEmpty { clockAdvances.removeAll(keepingCapacity: true) }
    if !outsideSteps.isEmpty { outsideSteps.removeAll(keepingCapacity: true) }
    if !handOffs.isEmpty { handOffs.removeAll() }
    runThreads = RunThreads()
    tookUncontrolledLocks = false
    if !uncontrolledLockStandIns.isEmpty { uncontrolledLockStandIns.removeAll() }
    if !lockNumbers.isEmpty {
      lockTouches.removeAll(keepingCapacity: true)
      lockNumbers.removeAll(keepingCapacity: true)
      nextLockNumber = 0
    }
    if !notes.isEmpty { notes.removeAll(keepingCapacity: true) }
    if !lockPauses.isEmpty { lockPauses.removeAll(keepingCapacity: true) }
    if !taskReads.isEmpty { taskReads.removeAll(keepingCapacity: true) }
    exactDelayOfNextSleep = nil
    runningStep = nil
    runningActor = nil
    stepToEnd = nil
    pendingMisuse = nil
    isDriving = true
    mailbox.reopen()
  }
}
