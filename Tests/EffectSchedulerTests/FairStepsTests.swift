@testable import EffectScheduler
import Synchronization
import Testing

/// Past `SchedulerConfiguration.stepsBeforeFairness`, each step runs the job ready longest: a
/// strategy that keeps a ready task waiting while others make new work cannot turn a program
/// that only needs that task to run into a livelock.
@Suite("Fair scheduling of long runs")
struct FairStepsTests {
  /// Runs the newest ready job every time: a task made ready before the others never runs while
  /// they keep making new ones.
  struct NewestFirst: SchedulingStrategy {
    mutating func nextJob(among ready: [ReadyJob], step: Int) throws -> Int { ready.count - 1 }
  }

  /// A loop that waits for a flag another task sets, starting a fresh task each time round, as
  /// swift-clocks' `TestClock.advance` yields from fresh detached tasks; on real threads the
  /// setter runs in a moment.
  @Sendable static func waitForTheSetter() async {
    let done = Atomic(false)
    let setter = Task { done.store(true, ordering: .relaxed) }
    while !done.load(ordering: .relaxed) { await Task.detached {}.value }
    await setter.value
  }

  /// How a run ended: its failure, how many steps it took, and what it did not explore.
  struct Ran: Sendable {
    let failure: SchedulerError?
    let steps: Int
    let unexplored: String?
  }

  private static func run(_ configuration: SchedulerConfiguration, _ program: @escaping @Sendable () async -> Void) async -> Ran {
    await onDedicatedThread {
      var strategy = NewestFirst()
      return withUnsafeMutablePointer(to: &strategy) { strategy in
        var runner = SequentialRunner()
        let outcome = runner.run(strategy: StrategyReference(strategy), configuration: configuration) { await program() }
        return Ran(failure: outcome.failure, steps: outcome.record.steps, unexplored: outcome.record.trail.unexplored)
      }
    }
  }

  @Test("a task the strategy keeps waiting runs once the run is past the bound, and the run says its later orders were not explored")
  func starvedTaskRuns() async {
    let outcome = await Self.run(SchedulerConfiguration(maxSteps: 5_000, stepsBeforeFairness: 200)) { await Self.waitForTheSetter() }
    #expect(outcome.failure == nil)
    #expect(outcome.steps > 200)
    #expect(outcome.steps < 400, "\(outcome.steps) steps")
    #expect(outcome.unexplored?.contains("past step 200") == true)
  }

  @Test("without the bound, the same strategy makes the program a livelock")
  func starvedTaskWithoutTheBound() async {
    let outcome = await Self.run(SchedulerConfiguration(maxSteps: 2_000, stepsBeforeFairness: nil)) { await Self.waitForTheSetter() }
    #expect(outcome.failure?.reason == .stepLimitExceeded(limit: 2_000, fairAfter: nil))
  }

  @Test("a run that stays within the bound is not marked, and a livelock under fair scheduling says so")
  func livelockUnderFairScheduling() async {
    let short = await Self.run(SchedulerConfiguration(stepsBeforeFairness: 200)) {
      let other = Task {}
      await other.value
    }
    #expect(short.failure == nil)
    #expect(short.unexplored == nil)
    let endless = await Self.run(SchedulerConfiguration(maxSteps: 1_000, stepsBeforeFairness: 200)) {
      let other = Task { while true { await Task.yield() } }
      while true { await Task.yield() }
      await other.value
    }
    #expect(endless.failure?.reason == .stepLimitExceeded(limit: 1_000, fairAfter: 200))
    #expect(endless.failure?.description.contains("the steps after the first 200 scheduled fairly") == true)
  }
}
