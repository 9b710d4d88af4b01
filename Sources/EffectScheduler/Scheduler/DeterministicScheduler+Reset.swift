import Synchronization

/// Making the scheduler ready for another run: every per-run fact cleared, and what a cut run
/// held released.
extension DeterministicScheduler {
  /// Lets go of what a run cut short recorded: its record has a copy of its own, and the run's
  /// tasks, which stay suspended for good (see TimingAssumption.swift), keep this scheduler
  /// alive, so each cut run would keep its storage too. Nothing runs on this scheduler again:
  /// its mailbox drops what arrives, and what a task asks of it off its run finds it not driving.
  func releaseStorageOfCutRun() {
    trail.releaseStorage()
    tasks.registry = TaskRegistry()
    actors = RunActors()
    queue.releaseStorage()
    fairYields = YieldFairness()
    lockWatch.releaseStorage()
    races = RaceDetector()
    time.releaseStorage()
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
