import EffectScheduler
import Effects
import Testing

@Suite("Replay strategy")
struct ReplayStrategyTests {
  @Test("replaying a recorded schedule reproduces its trace exactly")
  func replayReproducesTrace() async throws {
    for seed: UInt64 in 0..<10 {
      let recorded = try await DeterministicScheduler.run(strategy: .random(seed: seed)) { await threeTasksOfThreeSegments() }
      let replayed = try await DeterministicScheduler.run(strategy: .replay(recorded.schedule)) { await threeTasksOfThreeSegments() }
      #expect(replayed.trace == recorded.trace)
      #expect(replayed.value == recorded.value)
    }
  }

  @Test("a schedule survives printing and parsing")
  func replayFromString() async throws {
    let recorded = try await DeterministicScheduler.run(strategy: .random(seed: 5)) { await threeTasksOfThreeSegments() }
    let parsed = try Schedule(parsing: recorded.schedule.description)
    #expect(parsed == recorded.schedule)
    let replayed = try await DeterministicScheduler.run(strategy: .replay(parsed)) { await threeTasksOfThreeSegments() }
    #expect(replayed.trace == recorded.trace)
  }

  @Test("a schedule that names a task that is not ready is reported as a divergence")
  func divergenceNamesStep() async throws {
    let schedule = try Schedule(parsing: "s1:0.3.3.3")
    let error = try await #require(throws: SchedulerError.self) {
      try await DeterministicScheduler.run(strategy: .replay(schedule)) { await threeTasksOfThreeSegments() }
    }
    guard case .diverged(let divergence) = error.reason else {
      Issue.record("expected a divergence, got \(error.summary)")
      return
    }
    #expect(divergence.step == 2)
    #expect(error.summary.contains("step 2"))
    #expect(error.summary.contains("task #3"))
  }

  @Test("a schedule that ends before the program does is reported")
  func scheduleTooShort() async throws {
    let error = try await #require(throws: SchedulerError.self) {
      try await DeterministicScheduler.run(strategy: .replay(Schedule(parsing: "s1:0"))) { await threeTasksOfThreeSegments() }
    }
    #expect(error.summary.contains("the schedule has ended"))
  }

  @Test("a schedule longer than the program is reported")
  func scheduleTooLong() async throws {
    let recorded = try await DeterministicScheduler.run { await threeTasksOfThreeSegments() }
    var schedule = recorded.schedule
    schedule.choices.append(.task(TaskID(1)))
    let error = try await #require(throws: SchedulerError.self) {
      try await DeterministicScheduler.run(strategy: .replay(schedule)) { await threeTasksOfThreeSegments() }
    }
    #expect(error.summary.contains("the program finished"))
  }
}
