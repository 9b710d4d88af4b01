import EffectScheduler
import Effects
import Testing

@Suite("Random strategy")
struct RandomStrategyTests {
  @Test("the same seed gives the same trace")
  func sameSeed() async throws {
    for seed: UInt64 in [1, 2, 3, 99] {
      let first = try await DeterministicScheduler.run(strategy: .random(seed: seed)) { await threeTasksOfThreeSegments() }
      let second = try await DeterministicScheduler.run(strategy: .random(seed: seed)) { await threeTasksOfThreeSegments() }
      #expect(first.trace == second.trace)
      #expect(first.schedule == second.schedule)
      #expect(first.value == second.value)
    }
  }

  @Test("different seeds give different traces")
  func differentSeeds() async throws {
    var traces: Set<Trace> = []
    for seed: UInt64 in 0..<20 {
      let execution = try await DeterministicScheduler.run(strategy: .random(seed: seed)) { await threeTasksOfThreeSegments() }
      traces.insert(execution.trace)
    }
    // 20 seeds over 1680 interleavings: a handful of collisions at most.
    #expect(traces.count >= 15)
  }
}
