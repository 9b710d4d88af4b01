/// What a driven run recorded, whether or not it finished: the parts of the scheduler that record
/// a run, as the run left them, with how it ended.
///
/// Each fact a run records lives in one part, which owns it and its reset (the part's `clear()`),
/// and is read here through that part: `record.trail.unexplored`, `record.time.cutAtStep`. Adding
/// a fact touches that part alone. The few facts that combine parts, and the trace, are worked out
/// here, on demand.
package struct RunRecord {
  let ending: RunEnding
  /// The choices made.
  package let schedule: Schedule
  /// How many steps the run took.
  package let steps: Int
  /// Its events, choices and notes, and what came from outside and what no schedule can show
  /// (``RunTrail``).
  package let trail: RunTrail
  /// Its tasks (``RunTasks``).
  let tasks: RunTasks
  /// Its virtual clock and timers (``VirtualTimeState``).
  package let time: VirtualTimeState
  /// Its actors and what their jobs ran (``RunActors``).
  let actors: RunActors
  /// The locks its steps took and the pauses at them (``LockWatch``).
  package let lockWatch: LockWatch
  /// The fairness rule's record of the tasks it held back (``YieldFairness``).
  package let fairYields: YieldFairness
  /// Whether any job was handed back from outside, run or not (a run may stop before it runs).
  package let receivedWorkFromOutside: Bool
  /// Whether each cancellation was recorded at the step that made it.
  let watchedHiddenAccesses: Bool
  /// How many timers the run could fire early.
  let earlyFiringsAllowed: Int
  /// Where the strategy asked and the run's code was instrumented, each step's touches of memory;
  /// see ``Trace/memory``.
  let memoryTouches: [MemoryTouch]?

  /// What happened. Built on demand: a search needs it only for the runs that fail.
  package var trace: Trace {
    var trace = Trace(
      tasks: tasks.registry.records.map(\.info), events: trail.events.map(\.event), steps: steps, clockAdvances: time.clockAdvances,
      actors: actors.entries, actorJobTasks: actors.jobTasks, notes: trail.notes)
    trace.stepsBeyondTheirActor = actors.stepsBeyondTheirActor
    trace.cancellationsAtTheirStep = watchedHiddenAccesses
    trace.cancellationsUnwatchedFrom = tasks.cancellationsUnwatchedFrom
    trace.locks = lockWatch.lockTouches
    trace.taskReads = trail.taskReads
    trace.timedSteps = time.timedSteps
    trace.timersSet = time.timersSet
    trace.dueTimerFirings = time.dueTimerFirings
    trace.dueTimerOffers = time.dueTimerOffers
    trace.cutAtStep = time.cutAtStep
    trace.earlyFiringsAllowed = earlyFiringsAllowed
    trace.memory = memoryTouches.map(MemoryTouches.init)
    for pause in lockWatch.lockPauses { trace.lockPauses[pause.step] = pause.numbered(in: lockWatch.lockNumbers).text }
    return trace
  }

  /// A hash of the trace's events: equal traces have equal fingerprints, and different ones
  /// almost never do.
  package var traceFingerprint: UInt64 { trail.fingerprint }

  /// Whether a step made an object that holds a noncopyable value, such as a `Mutex` or an
  /// `Atomic`, in a run no instrumented code told of its operations: their critical sections and
  /// atomic operations ran whole (ObjectAllocations.swift).
  package var madeNoncopyableHolders: Bool { lockWatch.madeNoncopyableHolders && !trail.instrumented }

  /// Whether plain tasks ran without the scheduler as their preference, as where
  /// ``RuntimeMechanism/executorAdoption`` is off: such a task can hop between idle actors within
  /// one step, so orders real threads produce between those hops were not explored.
  package var plainTasksWentUnadopted: Bool {
    !tasks.readsTaskStatus && tasks.registry.records.contains(where: \.prefersNoExecutor)
  }

  /// Why the run stopped early, or `nil` when it finished.
  package var failure: SchedulerError? {
    guard case .failed(let reason) = ending else { return nil }
    return SchedulerError(reason: reason, schedule: schedule, trace: trace)
  }

  /// Whether the run finished with no task left unfinished.
  var finishedCleanly: Bool {
    guard case .finished(let unfinished) = ending else { return false }
    return unfinished.isEmpty
  }
}
