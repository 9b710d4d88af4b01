/// What a driven run recorded, whether or not it finished.
package struct RunRecord {
  let ending: RunEnding
  /// The choices made.
  package let schedule: Schedule
  let tasks: [TaskRegistry.Record]
  let events: [RecordedEvent]
  let steps: Int
  let clockAdvances: [ClockAdvance]
  let actors: [TraceActor]
  let actorJobTasks: [Int: [TaskID]]
  let stepsBeyondTheirActor: Set<Int>
  let notes: [TraceNote]
  /// The pauses at locks, each with its lock's number; see ``Trace/lockPauses``.
  let lockPauses: [LockPause]
  /// The steps whose job was handed back from outside the scheduler's control.
  package let outsideSteps: [Int]
  /// Whether any job was handed back from outside, run or not (a run may stop before it runs).
  package let receivedWorkFromOutside: Bool
  /// Whether each cancellation was recorded at the step that made it.
  let watchedHiddenAccesses: Bool
  /// The locks steps took; see ``Trace/locks``.
  let lockTouches: [LockTouch]
  /// The reads of other tasks' cancelled flags; see ``Trace/taskReads``.
  let taskReads: [TaskRead]
  /// The work the run's code handed to Dispatch, which runs outside the scheduler's control.
  package let handOffs: [HandOff]
  /// Whether a step took an `NSLock`, a `pthread_mutex_t` or a `pthread_rwlock_t` of the program's, which the scheduler
  /// does not control; known only in runs that watch hidden accesses.
  package let tookUncontrolledLocks: Bool
  /// Whether a step made an object that holds a noncopyable value, such as a `Mutex` or an
  /// `Atomic`, in a run no instrumented code told of its operations: their critical sections and
  /// atomic operations ran whole (ObjectAllocations.swift).
  package let madeNoncopyableHolders: Bool
  /// The step at which a task delayed past a timer fired early read the clock or slept, from
  /// which on the run followed no strategy and its outcome is not judged; see
  /// ``SchedulerConfiguration/earlyTimerFirings``.
  package let cutAtStep: Int?
  /// The steps that read the clock or began a sleep; see ``Trace/timedSteps``.
  let timedSteps: [Int]
  /// The timers the run's steps set; see ``Trace/timersSet``.
  let timersSet: [TimerSetting]
  /// The steps before which a timer due at the instant the clock was at already fired; see
  /// ``Trace/dueTimerFirings``.
  let dueTimerFirings: [Int]
  /// The steps at which the timer offered was due already; see ``Trace/dueTimerOffers``.
  let dueTimerOffers: [DueTimerOffer]
  /// The first thing the run met that no schedule can show, in words: a task a step made ready
  /// and then cancelled, a cancellation handler that waited for a lock another task held.
  package let unexplored: String?
  /// Whether the fairness rule held back a task that spun on `Task.yield()` while another could
  /// have run instead, so that orders real threads produce were not explored (see FairYields.swift).
  package let fairYieldsRemovedABranch: Bool
  /// Whether plain tasks ran without the scheduler as their preference, as where
  /// ``RuntimeMechanism/executorAdoption`` is off: such a task can hop between idle actors within
  /// one step, so orders real threads produce between those hops were not explored.
  package let plainTasksWentUnadopted: Bool
  /// The first issue the test framework recorded in one of the run's steps, in words: a run cut
  /// short is judged by it, as the body does not get to throw it.
  package let issueRecorded: String?
  /// How many timers the run could fire early.
  let earlyFiringsAllowed: Int
  /// A hash of the trace's events: equal traces have equal fingerprints, and different ones
  /// almost never do.
  package let traceFingerprint: UInt64
  /// Whether instrumented code of the run's steps told the run of its operations.
  package let instrumented: Bool
  /// Where the strategy asked and the run's code was instrumented, each step's touches of memory;
  /// see ``Trace/memory``.
  let memoryTouches: [MemoryTouch]?

  /// What happened. Built on demand: a search needs it only for the runs that fail.
  package var trace: Trace {
    var trace = Trace(
      tasks: tasks.map(\.info), events: events.map(\.event), steps: steps, clockAdvances: clockAdvances, actors: actors, actorJobTasks: actorJobTasks,
      notes: notes)
    trace.stepsBeyondTheirActor = stepsBeyondTheirActor
    trace.cancellationsAtTheirStep = watchedHiddenAccesses
    trace.locks = lockTouches
    trace.taskReads = taskReads
    trace.timedSteps = timedSteps
    trace.timersSet = timersSet
    trace.dueTimerFirings = dueTimerFirings
    trace.dueTimerOffers = dueTimerOffers
    trace.cutAtStep = cutAtStep
    trace.earlyFiringsAllowed = earlyFiringsAllowed
    trace.memory = memoryTouches.map(MemoryTouches.init)
    for pause in lockPauses { trace.lockPauses[pause.step] = pause.text }
    return trace
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
