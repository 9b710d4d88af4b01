import Explore
import ExploreTesting
import Testing

/// Starts `tasks` short-lived tasks one after another, awaiting each, as a server's loop does:
/// every task sleeps a moment.
@Sendable private func startAndAwait(_ tasks: Int) async {
  for _ in 0..<tasks {
    let task = Task { try? await Task.sleep(for: .milliseconds(1)) }
    await task.value
  }
}

/// A connection manager waiting for a cancellation that never comes: every round of its retry
/// loop starts a timer task and awaits it.
@Sendable private func retryForever() async {
  while true {
    let timer = Task { try? await Task.sleep(for: .seconds(1)) }
    await timer.value
  }
}

@Suite("Long runs: cost linear in steps and tasks, memory bounded at the step cap")
struct LongRunTests {
  /// Each strategy runs the program once (the default portfolio once a part that runs at all).
  /// A run's cost grew with the square of its tasks: these runs, with the determinism check's
  /// besides, took some 30 s between them in a release build, now under 2 s. Speed is measured
  /// by `Benchmarks longruns`; here, beside the other suites, only the time limit bounds it.
  @Test(
    "one run of 8,000 short-lived tasks, started and awaited one after another, finishes under every strategy",
    .timeLimit(.minutes(10)))
  func thousandsOfTasks() async throws {
    let strategies: [ExplorationStrategy] = [
      .exhaustive(maxSchedules: 1), .reduced(maxSchedules: 1), .preemptionBounded(maxSchedules: 1), .random(schedules: 1),
      .pct(schedules: 1), .default,
    ]
    var configuration = ExploreConfiguration(progressInterval: nil)
    configuration.checksDeterminism = false
    for strategy in strategies {
      let summary = try await explore(strategy, configuration: configuration) { await startAndAwait(8_000) }
      #expect(summary.schedules >= 1, "\(strategy)")
    }
  }

  /// Each round starts a task, so the run that reaches the cap has started some 33,000 tasks: the
  /// report shows its last steps and the tasks they name only. Before, the reduced search kept a
  /// clock entry for every task at every step, and the process ran out of memory.
  @Test(
    "a retry loop that never ends reaches the step cap under the default portfolio, reported as a possible livelock with its trace",
    .timeLimit(.minutes(10)))
  func neverEndingRetryLoop() async throws {
    var configuration = ExploreConfiguration(progressInterval: nil)
    configuration.scheduler.maxSteps = 100_000
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.default, configuration: configuration) { await retryForever() }
    }
    // Plain values only in the expectations: a failed one describes the values it names, and a
    // trace's description is its whole table, a row a step and a column a task.
    let steps = failure.trace?.steps ?? 0
    let tasks = failure.trace?.tasks.count ?? 0
    let report = failure.description
    #expect(failure.summary.contains("possible livelock"))
    #expect(steps == 100_000)
    #expect(tasks > 30_000)
    #expect(report.contains("earlier steps not shown, nor the"))
    // A row a step shown, a column a task those steps name, and the schedule, a few characters a
    // step: the whole table was some 80 MB.
    #expect(report.utf8.count < 2_000_000, "the report took \(report.utf8.count) bytes")
  }
}
