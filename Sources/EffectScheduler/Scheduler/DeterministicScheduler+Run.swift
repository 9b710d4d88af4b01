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
    try await onDedicatedThread {
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
    DeterministicScheduler(configuration: configuration).execute(strategy: &strategy, operation: operation)
  }

  /// Runs `operation` as the root task on this scheduler, which must be fresh or reset.
  func execute<Chooser: SchedulingStrategy, Value>(
    strategy: inout Chooser,
    operation: @escaping @Sendable () async throws -> Value
  ) -> RunOutcome<Value> {
    let box = ResultBox<Value>()
    // An explicit priority, so runs do not depend on the driver thread's quality of service.
    // The scheduler names the root itself: a runtime name would cost an allocation a run.
    Task(executorPreference: self, priority: .medium) {
      self.currentTaskDidStart(name: "root")
      let result: Result<Value, any Error>
      do {
        result = .success(try await Self.$active.withValue(self) { try await operation() })
      } catch {
        result = .failure(error)
      }
      box.result = result
      self.currentTaskWillComplete()
    }
    let ending = withUnsafeMutablePointer(to: &strategy) { strategy in
      self.strategy = Strategy(strategy)
      defer { self.strategy = nil }
      return drive()
    }
    return RunOutcome(
      ending: ending, result: box.result, schedule: Schedule(choices), tasks: registry.records, events: events,
      steps: step, traceFingerprint: fingerprint)
  }
}

/// Where the root task leaves its result for the driver thread, which reads it after the run.
private final class ResultBox<Value>: @unchecked Sendable {
  var result: Result<Value, any Error>?
}

/// Everything a driven run produced, whether or not it finished.
package struct RunOutcome<Value> {
  let ending: RunEnding
  /// The root task's result, or `nil` when the run stopped before the root task finished.
  package let result: Result<Value, any Error>?
  /// The choices made.
  package let schedule: Schedule
  let tasks: [TaskRegistry.Record]
  let events: [TraceEvent]
  let steps: Int

  /// What happened. Built on demand: a search needs it only for the runs that fail.
  package var trace: Trace { Trace(tasks: tasks.map(\.info), events: events, steps: steps) }
  /// A hash of the trace's events: equal traces have equal fingerprints, and different ones
  /// almost never do.
  package let traceFingerprint: UInt64

  /// Why the run stopped early, or `nil` when it finished.
  package var failure: SchedulerError? {
    guard case .failed(let reason) = ending else { return nil }
    return SchedulerError(reason: reason, schedule: schedule, trace: trace)
  }

  /// The execution, the program's error, or the scheduler's error.
  package var execution: Result<Execution<Value>, any Error> {
    if let failure { return .failure(failure) }
    guard case .finished(let unfinished) = ending, let result else {
      return .failure(SchedulerError(reason: .strategyFailed("the run ended without a result"), schedule: schedule, trace: trace))
    }
    return result.map { Execution(value: $0, schedule: schedule, trace: trace, unfinishedTasks: unfinished) }
  }
}
