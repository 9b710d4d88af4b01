/// Runs programs one after another on the calling thread, for a search that runs thousands of
/// schedules. A scheduler whose run ended cleanly (the program finished, no task was left
/// unfinished, and nothing came from outside) cannot get late jobs, so its storage serves the
/// next run; any other run's scheduler is left to its leftovers.
package struct SequentialRunner {
  private var spare: DeterministicScheduler?

  package init() {}

  /// Runs `operation` as ``DeterministicScheduler/execute(strategy:configuration:operation:)`` does.
  package mutating func run<Strategy: SchedulingStrategy, Value>(
    strategy: inout Strategy,
    configuration: SchedulerConfiguration,
    operation: @escaping @Sendable () async throws -> Value
  ) -> RunOutcome<Value> {
    let scheduler: DeterministicScheduler
    if let spare {
      spare.reset(configuration: configuration)
      scheduler = spare
    } else {
      scheduler = DeterministicScheduler(configuration: configuration)
    }
    spare = nil
    let outcome = scheduler.execute(strategy: &strategy, operation: operation)
    if case .finished(let unfinished) = outcome.ending, unfinished.isEmpty, !scheduler.mailbox.everReceived {
      spare = scheduler
    }
    return outcome
  }
}
