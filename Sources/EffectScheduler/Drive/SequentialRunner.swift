/// Runs programs one after another on the calling thread, for a search that runs thousands of
/// schedules. A scheduler whose run ended cleanly (the program finished, no task was left
/// unfinished, and nothing came from outside) cannot get late jobs, so its storage serves the
/// next run; any other run's scheduler is left to its leftovers.
package struct SequentialRunner {
  private let spare = Spare()

  package init() {}

  /// Runs `operation` as ``DeterministicScheduler/execute(strategy:configuration:operation:)`` does.
  package mutating func run<Strategy: SchedulingStrategy, Value>(
    strategy: inout Strategy,
    configuration: SchedulerConfiguration,
    operation: @escaping @Sendable () async throws -> Value
  ) -> RunOutcome<Value> {
    let scheduler = take(configuration)
    let outcome = scheduler.execute(strategy: &strategy, operation: operation)
    keep(scheduler, after: outcome.record)
    return outcome
  }

  /// Runs a program that returns nothing with a strategy borrowed for a whole search: the form a
  /// search calls once a schedule, which looks up no generic type metadata and makes no closures.
  package mutating func run(
    strategy: StrategyReference,
    configuration: SchedulerConfiguration,
    operation: @escaping @Sendable () async throws -> Void
  ) -> RunOutcome<Void> {
    let scheduler = take(configuration)
    let outcome = scheduler.execute(strategy: strategy, operation: operation)
    keep(scheduler, after: outcome.record)
    return outcome
  }

  /// The spare scheduler made ready for a run, or a new one.
  private mutating func take(_ configuration: SchedulerConfiguration) -> DeterministicScheduler {
    guard let scheduler = spare.scheduler else { return DeterministicScheduler(configuration: configuration) }
    spare.scheduler = nil
    scheduler.reset(configuration: configuration)
    return scheduler
  }

  /// Keeps `scheduler` for the next run if its run ended cleanly, and retires it otherwise.
  private mutating func keep(_ scheduler: DeterministicScheduler, after record: RunRecord) {
    if record.finishedCleanly, !scheduler.mailbox.everReceived {
      spare.scheduler = scheduler
    } else {
      scheduler.retire()
      if record.time.cutAtStep != nil { scheduler.releaseStorageOfCutRun() }
    }
  }
}

/// Holds the spare scheduler, and retires it when the runner is done with it.
private final class Spare {
  var scheduler: DeterministicScheduler?

  deinit { scheduler?.retire() }
}
