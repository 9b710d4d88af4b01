import Synchronization

/// Making the scheduler ready for another run: every per-run fact cleared, and what a cut run
/// held released.
extension DeterministicScheduler {
  /// Lets go of what a run cut short recorded: its record has a copy of its own, and the run's
  /// tasks, which stay suspended for good (see TimingAssumption.swift), keep this scheduler
  /// alive, so each cut run would keep its storage too. Nothing runs on this scheduler again:
  /// its mailbox drops what arrives, and what a task asks of it off its run finds it not driving.
  func releaseStorageOfCutRun() {
    trail.events = []
    trail.choices = []
    tasks.registry = TaskRegistry()
    actors = RunActors()
    queue.readyJobs = []
    queue.readyInfo = []
    queue.trampolines = []
    fairYields = YieldFairness()
    trail.notes = []
    lockWatch.lockPauses = []
    lockWatch.lockTouches = []
    lockWatch.lockNumbers = [:]
    lockWatch.uncontrolledLockStandIns = [:]
    lockWatch.heldWords = [:]
    races = RaceDetector()
    trail.taskReads = []
    time.clockAdvances = []
    time.timedSteps = []
    time.timersSet = []
    time.dueTimerFirings = []
    time.dueTimerOffers = []
    trail.madeReadyInStep = []
    trail.outsideSteps = []
  }

  /// Makes a scheduler whose run ended cleanly ready for another run, keeping its storage: each
  /// part clears what it holds of a run.
  func reset(configuration: SchedulerConfiguration) {
    self.configuration = configuration
    queue.clear()
    fairYields.removeAll()
    tasks.clear()
    trail.clear()
    step = 0
    running.clear()
    actors.removeAll()
    lockWatch.clear()
    races.clear()
    whenIdle = nil
    time.clear()
    runThreads = RunThreads()
    conclusion.pendingMisuse = nil
    isDriving = true
    mailbox.reopen()
  }
}
