import InstrumentationEntryPoints
#if compiler(>=6.3)
  @_spi(ExperimentalScheduling) import _Concurrency
#endif
import Dispatch

// Virtual time: sleeps of controlled tasks reach the scheduler as jobs with a deadline
// (`SchedulingExecutor`), which it holds until its virtual clock gets there. The clock starts at
// zero each run and moves when no job is ready: then it jumps to the earliest deadline and fires
// the first timer due then. Timers due at the same instant fire one at a time: each of the others
// is a choice beside the ready jobs, as on real threads a task woken by one timer may run, and
// cancel another sleep, before that sleep's own timer fires. A strategy may also fire the
// earliest timer early, while jobs are ready, a bounded number of times a run.

extension DeterministicScheduler {
  /// Holds `job` until the virtual clock has advanced by a duration somewhere in
  /// `earliest...latest` (see ``roundestDuration(from:to:)``). Off the driver thread, or once the
  /// run is over, the job waits in real time instead.
  func schedule(_ job: UnownedJob, after earliest: Duration, upTo latest: Duration) {
    instrumentation_library_enter()
    defer { instrumentation_library_exit() }
    guard isOnDriverThread, isDriving else {
      DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: earliest.nanoseconds))) {
        job.runSynchronously(on: self.asUnownedTaskExecutor())
      }
      return
    }
    learnRunningTaskName()
    _ = timeSeenByRunningCode()
    time.tracksStepStarts = true
    let delay: Duration
    if let exact = time.exactDelayOfNextSleep {
      time.exactDelayOfNextSleep = nil
      delay = exact
    } else {
      delay = earliest == latest ? earliest : roundestDuration(from: earliest, to: latest)
    }
    let timer = VirtualTimer(deadline: time.virtualNow + delay, sequence: time.timerSequence, job: job, owner: currentTaskID())
    time.timerSequence += 1
    time.timersSet.append(TimerSetting(step: step, owner: timer.owner, deadline: timer.deadline))
    time.timers.insert(timer)
  }

  /// How long ago, in real time, the step under way began: the longest a sleep's own reading of
  /// the clock can precede its hand-over.
  var realTimeSinceStepStart: Duration {
    (time.tracksStepStarts ? time.stepStartedAt : time.runStartedAt).duration(to: RealTime.now)
  }

  /// Moves the virtual clock to the earliest deadline, if it is not there yet, and runs that
  /// timer's wake-up, which makes its sleeping task ready; the other timers due then wait their
  /// turn (``offersTimer``). Like trampolines, wake-ups are not steps.
  func advanceClock() {
    let deadline = time.timers.first!.deadline
    if deadline == time.virtualNow, time.clockAdvances.last?.time == deadline {
      time.dueTimerFirings.append(step)
    } else {
      time.clockAdvances.append(ClockAdvance(step: step, time: deadline))
    }
    time.virtualNow = deadline
    foldIntoFingerprint(UInt64(truncatingIfNeeded: deadline.nanoseconds) &+ 0x7FFF_0000)
    let firing = time.timers.removeFirst().job
    // A wake-up is a task of the runtime's own, which is not the program's: it runs here, hops
    // included, without being registered.
    runTaskJob(firing, runtimeID: runtimeTaskID(firing), onMainActor: false)
  }

  /// Whether the strategy may fire the earliest timer now, beside the ready jobs: one is due
  /// already (``hasTimerDue``), or it may fire one early (``offersEarlyTimer``).
  var offersTimer: Bool { hasTimerDue || offersEarlyTimer }

  /// Whether a timer is due at the virtual clock's time, waiting for its turn after another due
  /// then, and nothing is announced from outside.
  var hasTimerDue: Bool {
    time.timers.first?.deadline == time.virtualNow && mailbox.expectedFromOutside == 0 && time.cutAtStep == nil
  }

  /// Notes, for the step about to be chosen, the timers due at the clock's instant, the one
  /// offered first (see ``Trace/dueTimerOffers``).
  func noteTimersDue() {
    time.dueTimerOffers.append(DueTimerOffer(step: step, deadline: time.virtualNow, timers: time.timers.dueWindow(at: time.virtualNow)))
  }

  /// Whether the strategy may fire the earliest timer early, beside the ready jobs: a timer is
  /// pending, nothing is announced from outside, and the run has fired fewer timers early than
  /// the configuration allows (see ``SchedulerConfiguration/earlyTimerFirings``).
  var offersEarlyTimer: Bool {
    !time.timers.isEmpty && time.earlyFirings < configuration.earlyTimerFirings && mailbox.expectedFromOutside == 0 && time.cutAtStep == nil
      && delaysOnlyUntimedWork
  }

  /// Fires the earliest timer as the step the strategy picked, though jobs are ready: a step that
  /// runs no job of its own, only the wake-up of that timer, due now or fired early.
  func fireTimer() {
    trail.choices.append(.timer)
    if !hasTimerDue {
      time.earlyFirings += 1
      markTasksDelayedByTimer()
    }
    if time.tracksStepStarts { time.stepStartedAt = RealTime.now }
    advanceClock()
    step += 1
  }

  /// Runs the wake-ups still held when a run ends, so their jobs are not leaked: those of
  /// cancelled sleeps do nothing, and the others wake tasks that go on after the run, uncontrolled.
  func releaseTimers() {
    if time.timers.isEmpty { return }
    for job in time.timers.removeAllInOrder() { job.runSynchronously(on: executor) }
  }
}

#if compiler(>=6.3)
  @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
  @_spi(ExperimentalScheduling) extension DeterministicScheduler: SchedulingExecutor {
    /// Takes the wake-up of a sleep, due `delay` from now, and holds it on the virtual clock.
    public func enqueue<C: Clock>(
      _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
    ) {
      let exact = (delay as? Duration) ?? .zero
      schedule(UnownedJob(job), after: exact, upTo: exact)
    }

    /// Takes the wake-up of a sleep, due at `instant` on `clock`, and holds it on the virtual clock.
    public func enqueue<C: Clock>(
      _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
    ) {
      let job = UnownedJob(job)
      guard let remaining = clock.now.duration(to: instant) as? Duration else {
        return schedule(job, after: .zero, upTo: .zero)
      }
      // Where the clocks' reads are virtual, the sleep read the virtual clock: the duration is exact.
      schedule(job, after: remaining, upTo: remaining + (clockReadsAreVirtual ? .zero : realTimeSinceStepStart))
    }
  }
#endif
