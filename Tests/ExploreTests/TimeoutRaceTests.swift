import EffectScheduler
import Explore
import Synchronization
import Testing

/// Runs `work`, giving up after `limit`: a task group races the work against a sleep, takes
/// whichever finishes first and cancels the other. `nil` means the work timed out.
private func withTimeout<Value: Sendable>(
  _ limit: Duration, _ work: @escaping @Sendable () async throws -> Value
) async throws -> Value? {
  try await withThrowingTaskGroup(of: Value?.self) { group in
    group.addTask { try await work() }
    group.addTask {
      try await Task.sleep(for: limit)
      return nil
    }
    defer { group.cancelAll() }
    return try await group.next() ?? nil
  }
}

/// What each schedule of a timeout race ended with: the outcome and the virtual time it took.
final class TimeoutOutcomes: Sendable {
  private let seen = Mutex<Set<String>>([])

  func record(_ outcome: String) { _ = seen.withLock { $0.insert(outcome) } }
  var all: Set<String> { seen.withLock { $0 } }
}

/// Work that takes `duration` of virtual time, under a 100 ms timeout; records the outcome.
func raceWork(taking duration: Duration, into outcomes: TimeoutOutcomes) async throws {
  let answer = try await withTimeout(.milliseconds(100)) {
    try await Task.sleep(for: duration)
    return "answer"
  }
  let elapsed = DeterministicScheduler.current?.virtualTime ?? .zero
  outcomes.record("\(answer ?? "timed out") at \(elapsed)")
}

@Suite("A timeout: a task group racing Task.sleep against work")
struct TimeoutRaceTests {
  @Test("work that takes exactly the timeout finishes under some schedules and times out under others")
  func tieHasBothOutcomes() async throws {
    let outcomes = TimeoutOutcomes()
    let summary = try await explore(.exhaustive) { try await raceWork(taking: .milliseconds(100), into: outcomes) }
    #expect(summary.claimsEverySchedule(assuming: [.timedWorkRanOnTime]))
    #expect(outcomes.all == ["answer at 0.1 seconds", "timed out at 0.1 seconds"])
  }

  @Test(
    "without a tie, the virtual clock decides, and the loser's sleep ends at once when it is cancelled",
    arguments: [(10, "answer at 0.01 seconds"), (1000, "timed out at 0.1 seconds")])
  func noTieOneOutcome(milliseconds: Int, expected: String) async throws {
    let outcomes = TimeoutOutcomes()
    let summary = try await explore(.exhaustive) {
      try await raceWork(taking: .milliseconds(milliseconds), into: outcomes)
    }
    #expect(summary.claimsEverySchedule(assuming: [.timedWorkRanOnTime]))
    #expect(outcomes.all == [expected])
  }
}
