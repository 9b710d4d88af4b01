import EffectScheduler
import Effects
import Testing

@Suite("FIFO strategy")
struct FIFOStrategyTests {
  @Test("three tasks of three segments take turns in creation order")
  func roundRobin() async throws {
    let execution = try await DeterministicScheduler.run(strategy: .fifo) {
      await threeTasksOfThreeSegments()
    }
    #expect(execution.value == ["A0", "B0", "C0", "A1", "B1", "C1", "A2", "B2", "C2"])
    #expect(execution.trace.tasks.map(\.description) == ["#0 root", "#1 A", "#2 B", "#3 C"])
    #expect(execution.trace.tasks.dropFirst().allSatisfy { $0.parent == TaskID(0) && $0.kind == .unstructured })
  }
}
