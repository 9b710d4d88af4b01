// What a timer fired early assumes (see `SchedulerConfiguration.earlyTimerFirings`).
//
// Firing a timer while jobs are ready models those jobs delayed past the timer's deadline, as a
// busy pool or a slow thread delays them: a timeout that fires before the work it guards, even
// work that never sleeps. Tests of timed code assume their timed work runs on time: a 1 s job
// under a 2 s time limit is expected to win, a debounce's search to start 300 ms after the last
// keystroke, a throttle to measure the gaps its sleeps made. Exploring delays of timed work would
// fail every such test. So the model delays only untimed work:
// - a task that has read `ContinuousClock.now` or `SuspendingClock.now` or slept keeps time: no
//   timer fires early while it is ready;
// - a task that was delayed (or one it created since) and then reads the clock or sleeps would
//   see the delay in its own timing: the run is stopped at that step, its tasks never to run
//   again, and not judged, so nothing the program records after the cut counts;
// - a task delayed, then cancelled before its next job, might have kept time in that job: the
//   run is stopped there too (swift-async-algorithms' debounce wakes a task that reads the clock,
//   and cancels it when the upstream ends: delaying it past the upstream's end would make a
//   correct debounce drop an element).

extension DeterministicScheduler {
  /// Marks the tasks whose jobs are ready, held back or waiting for the main actor as delayed
  /// past the timer about to fire early.
  func markTasksDelayedByTimer() {
    func delay(_ owner: TaskID?) {
      guard let owner else { return }
      if tasks.registry[owner].delayedAt == nil { tasks.registry[owner].delayedAt = time.virtualNow }
      tasks.registry[owner].delayedSinceLastJob = true
    }
    for info in queue.readyInfo { delay(info.owner) }
    for held in fairYields.held { delay(held.info.owner) }
    for (_, info) in queue.waitingMainActorJobs { delay(info.owner) }
  }

  /// Stops the run at this step if task `id`, whose job begins, was delayed past a timer fired
  /// early and has been cancelled since: what its job would have done on time is unknown.
  func noteFirstJobSinceDelay(of id: TaskID) {
    guard tasks.registry[id].delayedSinceLastJob else { return }
    tasks.registry[id].delayedSinceLastJob = false
    if tasks.registry[id].cancelled, time.cutAtStep == nil { time.cutAtStep = step }
  }

  /// Notes that the running code reads the clock or is about to sleep, and returns the virtual
  /// time it sees. A task delayed past a timer fired early cuts the run here, and sees the time
  /// at which it was delayed, as it would have on time: what it records before its job ends is
  /// what it would have recorded.
  func timeSeenByRunningCode() -> Duration {
    guard let task = currentTaskID() else { return time.virtualNow }
    if !tasks.registry[task].keepsTime {
      tasks.registry[task].keepsTime = true
      queue.timedJobs += tasks.registry[task].queuedJobs
    }
    if time.timedSteps.last != step { time.timedSteps.append(step) }
    guard let delayedAt = tasks.registry[task].delayedAt else { return time.virtualNow }
    if time.cutAtStep == nil { time.cutAtStep = step }
    return delayedAt
  }

  /// Whether every task a timer fired now would delay has so far neither read the clock nor
  /// slept: work that keeps time is taken to run on time.
  var delaysOnlyUntimedWork: Bool {
    assert(queue.timedJobs == timedJobsCounted, "queued jobs of tasks that keep time: \(queue.timedJobs) kept, \(timedJobsCounted) counted")
    return queue.timedJobs == 0
  }

  /// Counts `info`'s job among the jobs waiting (`delta` 1) or no longer (`delta` -1), for
  /// ``ReadyQueue/timedJobs``: at each job added to the queue, and each taken from it to run.
  /// Moves within the queue (held back, waiting for the main actor, ready) count nothing.
  func countQueued(_ info: ReadyJob, _ delta: Int) {
    guard let owner = info.owner else { return }
    tasks.registry[owner].queuedJobs += delta
    if tasks.registry[owner].keepsTime { queue.timedJobs += delta }
  }

  /// ``ReadyQueue/timedJobs`` counted afresh, for the check in debug builds.
  private var timedJobsCounted: Int {
    func timed(_ owner: TaskID?) -> Int { owner.map { tasks.registry[$0].keepsTime ? 1 : 0 } ?? 0 }
    return queue.readyInfo.reduce(0) { $0 + timed($1.owner) } + fairYields.held.reduce(0) { $0 + timed($1.info.owner) }
      + queue.waitingMainActorJobs.reduce(0) { $0 + timed($1.1.owner) }
  }
}
