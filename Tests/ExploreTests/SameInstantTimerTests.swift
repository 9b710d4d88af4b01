import EffectScheduler
@testable import Explore
import Testing

/// Timers due at the same instant fire one at a time, each a choice beside the ready jobs: on
/// real threads a task woken by one timer may run, and cancel another sleep, before that sleep's
/// own timer fires.
@Suite("Timers due at the same instant")
struct SameInstantTimerTests {
  /// What each run's sleeper said, gathered across the runs of one exploration.
  typealias Outcomes = Collected<String>

  /// Two tasks sleep 5 ms; the second, once awake, cancels the first. Whether the first's sleep
  /// ends or throws depends on whether its timer fired before the cancellation.
  static func program(_ outcomes: Outcomes) async {
    let sleeper = Task { () -> String in
      do {
        try await Task.sleep(for: .milliseconds(5))
        return "woke"
      } catch {
        return "cancelled"
      }
    }
    let canceller = Task {
      try? await Task.sleep(for: .milliseconds(5))
      sleeper.cancel()
    }
    await canceller.value
    outcomes.add(await sleeper.value)
  }

  @Test("every strategy that claims every schedule sees the sleep both end and throw", arguments: ClaimingStrategies.names)
  func bothEndings(strategyName: String) async throws {
    let outcomes = Outcomes()
    // The sleeper and the canceller share nothing the scheduler cannot see.
    let summary = try await explore(ClaimingStrategies.named(strategyName), configuration: ClaimingStrategies.configuration) {
      await Self.program(outcomes)
    }
    #expect(summary.claimsEverySchedule(assuming: [.timedWorkRanOnTime, .noUnseenSharing]))
    #expect(outcomes.all == ["woke", "cancelled"])
  }

  @Test(
    "with the canceller's timer set first, the sleeper's timer, due as well, fires when the strategy picks it",
    arguments: [("s1:0.2.1.2.1.0", "cancelled"), ("s1:0.2.1.t.2.1.0", "woke")])
  func dueTimerIsAChoice(schedule: String, expected: String) async throws {
    let outcomes = Outcomes()
    _ = try await explore(.replay(schedule), configuration: ExploreConfiguration(progressInterval: nil)) { await Self.program(outcomes) }
    #expect(outcomes.all == [expected])
  }
}
