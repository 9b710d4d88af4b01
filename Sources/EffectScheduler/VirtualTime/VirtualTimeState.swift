/// The run's virtual clock and what it records: the timers pending, the clock's moves, the
/// steps that read it, and when each step began in real time (see
/// DeterministicScheduler+VirtualTime.swift).
package struct VirtualTimeState {
  var timers = TimerQueue()
  var timerSequence = 0
  var virtualNow = Duration.zero
  var clockAdvances: [ClockAdvance] = []
  /// How many timers the run fired while jobs were ready.
  var earlyFirings = 0
  /// The step at which a task delayed past an early timer read the clock or slept, from which on
  /// the run follows no strategy (see TimingAssumption.swift).
  package internal(set) var cutAtStep: Int?
  /// The steps in which the running code read the clock or began a sleep; see ``Trace/timedSteps``.
  var timedSteps: [Int] = []
  /// The timers the run's steps set; see ``Trace/timersSet``.
  var timersSet: [TimerSetting] = []
  /// The steps before which a timer due at the instant the clock was at already fired; see
  /// ``Trace/dueTimerFirings``.
  var dueTimerFirings: [Int] = []
  /// The steps at which the timer offered was due already; see ``Trace/dueTimerOffers``.
  var dueTimerOffers: [DueTimerOffer] = []
  /// Whether each step notes when it began, which this scheduler does from its first sleep on, to
  /// bound when a sleep read the clock. Before that, the start of the run bounds it.
  var tracksStepStarts = false
  /// The exact duration of the sleep about to be handed over, when ``SchedulerClock`` knows it.
  var exactDelayOfNextSleep: Duration?
  var stepStartedAt = RealTime.now
  /// When the run began, in real time, on the continuous clock and, as a duration since its
  /// epoch, on the suspending one: the virtual clocks the run's code reads start there (see
  /// VirtualClockReads.swift).
  var runStartedAt = RealTime.now
  var suspendingRunStart = Duration.zero

  /// Sets the clock back to zero with no timer pending, keeping the storage, for another run.
  mutating func clear() {
    timers.removeAll()
    timerSequence = 0
    virtualNow = .zero
    earlyFirings = 0
    cutAtStep = nil
    exactDelayOfNextSleep = nil
    if !timedSteps.isEmpty { timedSteps.removeAll(keepingCapacity: true) }
    if !timersSet.isEmpty { timersSet.removeAll(keepingCapacity: true) }
    if !dueTimerFirings.isEmpty { dueTimerFirings.removeAll(keepingCapacity: true) }
    if !dueTimerOffers.isEmpty { dueTimerOffers.removeAll(keepingCapacity: true) }
    if !clockAdvances.isEmpty { clockAdvances.removeAll(keepingCapacity: true) }
  }

  /// Lets go of the storage a cut run's timing filled, which may be large.
  mutating func releaseStorage() {
    clockAdvances = []
    timedSteps = []
    timersSet = []
    dueTimerFirings = []
    dueTimerOffers = []
  }
}
