#if canImport(Glibc)
  import Glibc
#endif
import InstrumentationEntryPoints

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
    // What this thread was handed before the run is no step's.
    if trail.listened { instrumentation_discard_pending_allocations() }
    let ending = drive()
    if trail.listened { Instrumentation.endListening() }
    releaseHeldTasks()
    releaseGroupChildren()
    self.strategy = nil
    DrivingThread.set(nil)
    OwnedTasks.remove(tasks.ownedRuntimeIDs)
    RuntimeHooks.runsUnderWay.subtract(1, ordering: .relaxed)
    let record = RunRecord(
      ending: ending, schedule: Schedule(trail.choices, splitsCriticalSections: pausesBetweenSections), steps: step, trail: trail, tasks: tasks,
      time: time, actors: actors, lockWatch: lockWatch, fairYields: fairYields, receivedWorkFromOutside: mailbox.everReceived,
      watchedHiddenAccesses: watchedHiddenAccesses, earlyFiringsAllowed: configuration.earlyTimerFirings,
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
