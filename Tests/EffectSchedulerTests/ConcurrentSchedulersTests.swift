import EffectScheduler
import Testing

@Suite("Concurrent schedulers")
struct ConcurrentSchedulersTests {
  @Test("50 schedulers running at once each see only their own jobs")
  func fiftyAtOnce() async throws {
    let expected = try await DeterministicScheduler.run(strategy: .random(seed: 11)) { await threeTasksOfThreeSegments() }
    let results = try await withThrowingTaskGroup(of: Execution<[String]>.self) { group in
      for _ in 0..<50 {
        group.addTask {
          try await DeterministicScheduler.run(strategy: .random(seed: 11)) { await threeTasksOfThreeSegments() }
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 50)
    for execution in results {
      #expect(execution.trace == expected.trace)
      #expect(execution.value == expected.value)
      #expect(execution.trace.tasks.count == 4)
    }
  }
}
