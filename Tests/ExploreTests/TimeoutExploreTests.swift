import EffectScheduler
import Explore
import ExploreTesting
import Synchronization
import Testing

/// Runs `work` against a time limit, as apps do: a task group races the work against a sleep,
/// takes whichever finishes first and cancels the other. Returns the work's result, or `nil` when
/// the limit came first.
private func withTimeLimit(_ limit: Duration, _ work: @escaping @Sendable () async throws -> String) async -> String? {
  await withTaskGroup(of: String?.self) { group in
    group.addTask(name: "work") { try? await work() }
    group.addTask(name: "timer") {
      try? await Task.sleep(for: limit)
      return nil
    }
    let first = await group.next() ?? nil
    group.cancelAll()
    return first
  }
}

/// A request that takes `duration` of virtual time to answer.
private func fetch(taking duration: Duration) async throws -> String {
  try await Task.sleep(for: duration)
  return "response"
}

private struct TimedOut: Error {}

@Suite("Time limits on virtual time")
struct TimeoutExploreTests {
  @Test(
    "a task group racing work that sleeps against a time limit: equal durations give both outcomes, different ones only the earlier",
    arguments: [
      (work: 1, limit: 1, outcomes: ["response", "timed out"]),
      (work: 1, limit: 2, outcomes: ["response"]),
      (work: 3, limit: 2, outcomes: ["timed out"]),
    ] as [(work: Int, limit: Int, outcomes: Set<String>)])
  func timeLimit(work: Int, limit: Int, outcomes: Set<String>) async throws {
    let seen = Mutex<Set<String>>([])
    let wokeAt = Mutex<Set<Duration>>([])
    var configuration = ExploreConfiguration()
    configuration.progressInterval = nil
    let summary = try await explore(.exhaustive, configuration: configuration) {
      let result = await withTimeLimit(.seconds(limit)) { try await fetch(taking: .seconds(work)) }
      seen.withLock { _ = $0.insert(result ?? "timed out") }
      wokeAt.withLock { _ = $0.insert(DeterministicScheduler.current?.virtualTime ?? .seconds(-1)) }
    }
    #expect(seen.withLock { $0 } == outcomes)
    // The loser is cancelled, so the run ends when the first sleeper wakes.
    #expect(wokeAt.withLock { $0 } == [.seconds(min(work, limit))])
    #expect(summary.claimsEverySchedule(assuming: [.timedWorkRanOnTime]))
    #expect(summary.schedules >= outcomes.count)
  }

  @Test("a time limit longer than the work never fires, whatever the schedule: the exploration passes")
  func generousLimitPasses() async throws {
    var configuration = ExploreConfiguration()
    configuration.progressInterval = nil
    let summary = try await explore(.exhaustive, configuration: configuration) {
      let result = await withTimeLimit(.seconds(30)) { try await fetch(taking: .seconds(29)) }
      if result == nil { throw TimedOut() }
    }
    #expect(summary.claimsEverySchedule(assuming: [.timedWorkRanOnTime]))
  }

  @Test("equal durations: exhaustive search finds the schedule where the limit wins, and reports its time")
  func tightLimitFails() async throws {
    var configuration = ExploreConfiguration()
    configuration.progressInterval = nil
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: configuration) {
        let result = await withTimeLimit(.seconds(5)) { try await fetch(taking: .seconds(5)) }
        if result == nil { throw TimedOut() }
      }
    }
    #expect(failure.underlyingError is TimedOut)
    let trace = try #require(failure.trace)
    #expect(trace.clockAdvances.map(\.time) == [.seconds(5)])
    // The report's table shows when each step ran.
    #expect(failure.description.contains("step | time |"))
    #expect(failure.description.contains("| 5s "))
  }
}
