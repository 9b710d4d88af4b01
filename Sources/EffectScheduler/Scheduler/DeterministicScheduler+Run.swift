#if canImport(Glibc)
  import Glibc
#endif

extension DeterministicScheduler {
  /// Runs `operation` as the root task of a program under a new scheduler and returns its value
  /// with the schedule and trace of the run.
  ///
  /// The scheduler drives the program on a thread of its own, so the caller's thread is free and
  /// any number of runs can go on at once without seeing each other's jobs. The program inherits
  /// the caller's task-local values, as a child task would.
  ///
  /// ```swift
  /// let first = try await DeterministicScheduler.run(strategy: .random(seed: 1)) { try await program() }
  /// let again = try await DeterministicScheduler.run(strategy: .replay(first.schedule)) { try await program() }
  /// assert(again.trace == first.trace)
  /// ```
  ///
  /// - Throws: the error `operation` throws, or ``SchedulerError`` when the run deadlocks, stalls,
  ///   exceeds its step limit or diverges from a replayed schedule.
  public static func run<Value: Sendable>(
    strategy: some SchedulingStrategy & Sendable = .fifo,
    configuration: SchedulerConfiguration = SchedulerConfiguration(),
    operation: @escaping @Sendable () async throws -> Value
  ) async throws -> Execution<Value> {
    // A replayed schedule runs at the granularity it was made at.
    let configuration = (strategy as? ReplayStrategy).map { configuration.replaying($0.schedule) } ?? configuration
    return try await onDedicatedThread {
      var strategy = strategy
      return execute(strategy: &strategy, configuration: configuration, operation: operation).execution
    }.get()
  }

  /// Runs `operation` under a new scheduler on the calling thread, blocking it until the run ends.
  ///
  /// Call it from a thread of your own, never from the cooperative pool: the thread waits while
  /// work is outside the scheduler's control. `strategy` keeps whatever it learned, so a search
  /// can call this once a schedule.
  package static func execute<Strategy: SchedulingStrategy, Value>(
    strategy: inout Strategy,
    configuration: SchedulerConfiguration,
    operation: @escaping @Sendable () async throws -> Value
  ) -> RunOutcome<Value> {
    let scheduler = DeterministicScheduler(configuration: configuration)
    defer { scheduler.retire() }
    return scheduler.execute(strategy: &strategy, operation: operation)
  }

  /// Runs `operation` as the root task on this scheduler, which must be fresh or reset.
  func execute<Chooser: SchedulingStrategy, Value>(
    strategy: inout Chooser,
    operation: @escaping @Sendable () async throws -> Value
  ) -> RunOutcome<Value> {
    let returned = ReturnedValue<Value>()
    let outcome = withUnsafeMutablePointer(to: &strategy) { strategy in
      execute(strategy: StrategyReference(strategy)) { returned.value = try await operation() }
    }
    let result: Result<Value, any Error>? =
      switch outcome.result {
      case .success?: returned.value.map(Result.success)
      case .failure(let error)?: .failure(error)
      case nil: nil
      }
    return RunOutcome(record: outcome.record, result: result)
  }

  /// Runs a program that returns nothing, as a search does thousands of times: unlike the generic
  /// form, nothing in it looks up generic type metadata at run time.
  func execute(strategy: StrategyReference, operation: @escaping @Sendable () async throws -> Void) -> RunOutcome<Void> {
    let root = RootTask(scheduler: self, operation: operation)
    // The last run may have ended on another thread, if a job paused.
    activeThread.store(ThreadIdentity.current, ordering: .relaxed)
    // Probed before the run begins, so that no probe's task is taken for the run's.
    _ = RuntimeCapabilities.current
    RuntimeHooks.installed
    CrashReport.installed
    RuntimeHooks.claimHooks()
    _ = RunThreads.redirections
    CancelCalls.claimed
    #if os(Linux) && _pointerBitWidth(_64)
      ObjectAllocations.claimed
    #endif
    RuntimeHooks.runsUnderWay.add(1, ordering: .relaxed)
    DrivingThread.set(self)
    time.runStartedAt = RealTime.now
    jobRecord.watch(warningAfter: configuration.blockedJobWarning, givingUpAfter: configuration.blockedJobLimit)
    #if os(Linux)
      time.suspendingRunStart = RealTime.reading(CLOCK_MONOTONIC)
    #endif
    // An explicit priority, so runs do not depend on the driver thread's quality of service.
    // The closure captures one object, so it needs no context of its own.
    if activeRun == nil { activeRun = ActiveRun(scheduler: self) }
    Task(executorPreference: self, priority: .medium) { await root.run() }
    self.strategy = strategy
    if strategy.watchesHiddenAccesses || strategy.watchesLocks || followsHeldLocks {
      _ = driverStack
      VisibleLocks.redirections.claim()
      LockPauses.unlockRedirections.claim()
    }
    if followsHeldLocks { LockPauses.pausingRuns.add(1, ordering: .relaxed) }
    defer { if followsHeldLocks { LockPauses.pausingRuns.subtract(1, ordering: .relaxed) } }
    if strategy.watchesHiddenAccesses { CancellationReads.redirections.claim() }
    trail.listened = Instrumentation.beginListening()
    let ending = drive()
    if trail.listened { Instrumentation.endListening() }
    releaseHeldTasks()
    releaseGroupChildren()
    self.strategy = nil
    DrivingThread.set(nil)
    OwnedTasks.remove(tasks.ownedRuntimeIDs)
    RuntimeHooks.runsUnderWay.subtract(1, ordering: .relaxed)
    let record = RunRecord(
      ending: ending, schedule: Schedule(trail.choices, splitsCriticalSections: pausesBetweenSections), tasks: tasks.registry.records, events: trail.events, steps: step,
      clockAdvances: time.clockAdvances, actors: actors.entries, actorJobTasks: actors.jobTasks,
      stepsBeyondTheirActor: actors.stepsBeyondTheirActor, notes: trail.notes,
      lockPauses: lockWatch.lockPauses.isEmpty ? [] : lockWatch.lockPauses.map { $0.numbered(in: lockWatch.lockNumbers) }, outsideSteps: trail.outsideSteps,
      receivedWorkFromOutside: mailbox.everReceived, watchedHiddenAccesses: watchedHiddenAccesses, lockTouches: lockWatch.lockTouches, taskReads: trail.taskReads,
      handOffs: trail.handOffs, tookUncontrolledLocks: lockWatch.tookUncontrolledLocks,
      madeNoncopyableHolders: lockWatch.madeNoncopyableHolders && !trail.instrumented, cutAtStep: time.cutAtStep, timedSteps: time.timedSteps, timersSet: time.timersSet, dueTimerFirings: time.dueTimerFirings, dueTimerOffers: time.dueTimerOffers, unexplored: trail.unexplored, fairYieldsRemovedABranch: fairYields.removedABranch,
      plainTasksWentUnadopted: !tasks.readsTaskStatus && tasks.registry.records.contains(where: \.prefersNoExecutor), issueRecorded: trail.issueRecorded, earlyFiringsAllowed: configuration.earlyTimerFirings,
      traceFingerprint: trail.fingerprint, instrumented: trail.instrumented,
      memoryTouches: races.recordsTouches && trail.instrumented ? races.touches : nil)
    // Until the next run's drive loop begins: the next root's creation takes locks of its own.
    watchedHiddenAccesses = false
    lockWatch.watchedLocks = false
    return RunOutcome(record: record, result: root.result)
  }
}

/// A run's root task: the program, the scheduler it runs under, and, once it has finished, its
/// result, which the driver thread reads after the run. It is not generic, and neither is its
/// result, so freeing it after every run of a search looks up no type metadata (that lookup took
/// about 1.5% of a one-thread exploration of 3 × 3): a program that returns a value hands it over
/// through a ``ReturnedValue``.
private final class RootTask: @unchecked Sendable {
  let scheduler: DeterministicScheduler
  let operation: @Sendable () async throws -> Void
  var result: Result<Void, any Error>?

  init(scheduler: DeterministicScheduler, operation: @escaping @Sendable () async throws -> Void) {
    self.scheduler = scheduler
    self.operation = operation
  }

  func run() async {
    // The scheduler names the root itself: a runtime name would cost an allocation a run.
    scheduler.currentTaskDidStart(name: "root")
    do {
      try await DeterministicScheduler.$active.withValue(scheduler.activeRun) { try await operation() }
      result = .success(())
    } catch {
      result = .failure(error)
    }
    scheduler.currentTaskWillComplete()
  }
}

/// Where the root task of a program that returns a value leaves it, for the driver thread to read
/// after the run.
private final class ReturnedValue<Value>: @unchecked Sendable {
  var value: Value?
}

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

/// Everything a driven run produced: its record and the root task's result.
package struct RunOutcome<Value> {
  let record: RunRecord
  /// The root task's result, or `nil` when the run stopped before the root task finished.
  package let result: Result<Value, any Error>?

  /// The choices made.
  package var schedule: Schedule { record.schedule }
  /// What happened, built on demand.
  package var trace: Trace { record.trace }
  /// A hash of the trace's events; see ``RunRecord/traceFingerprint``.
  package var traceFingerprint: UInt64 { record.traceFingerprint }
  /// Whether instrumented code of the run's steps told the run of its operations; see
  /// ``RunRecord/instrumented``.
  package var instrumented: Bool { record.instrumented }
  /// How many steps the run took.
  package var steps: Int { record.steps }
  /// The steps whose job was handed back from outside the scheduler's control.
  package var outsideSteps: [Int] { record.outsideSteps }
  /// Whether any job was handed back from outside, run or not.
  package var receivedWorkFromOutside: Bool { record.receivedWorkFromOutside }
  /// The work the run's code handed to Dispatch.
  package var handOffs: [HandOff] { record.handOffs }
  /// Whether a step took a lock the scheduler does not control; see ``RunRecord/tookUncontrolledLocks``.
  package var tookUncontrolledLocks: Bool { record.tookUncontrolledLocks }
  /// Whether a step made an object holding a noncopyable value; see ``RunRecord/madeNoncopyableHolders``.
  package var madeNoncopyableHolders: Bool { record.madeNoncopyableHolders }
  package var unexplored: String? { record.unexplored }
  /// Whether the fairness rule removed a branch; see ``RunRecord/fairYieldsRemovedABranch``.
  package var fairYieldsRemovedABranch: Bool { record.fairYieldsRemovedABranch }
  /// Whether plain tasks ran unadopted; see ``RunRecord/plainTasksWentUnadopted``.
  package var plainTasksWentUnadopted: Bool { record.plainTasksWentUnadopted }
  /// The first issue recorded in one of the run's steps; see ``RunRecord/issueRecorded``.
  package var issueRecorded: String? { record.issueRecorded }
  /// The step from which on the run was cut short; see ``RunRecord/cutAtStep``.
  package var cutAtStep: Int? { record.cutAtStep }
  /// Why the run stopped early, or `nil` when it finished.
  package var failure: SchedulerError? { record.failure }

  /// The execution, the program's error, or the scheduler's error.
  package var execution: Result<Execution<Value>, any Error> {
    if let failure { return .failure(failure) }
    guard case .finished(let unfinished) = record.ending, let result else {
      return .failure(SchedulerError(reason: .strategyFailed("the run ended without a result"), schedule: schedule, trace: trace))
    }
    return result.map { Execution(value: $0, schedule: schedule, trace: trace, unfinishedTasks: unfinished) }
  }
}
