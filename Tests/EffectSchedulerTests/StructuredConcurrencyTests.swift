import EffectScheduler
import Testing

@Suite("Structured children")
struct StructuredConcurrencyTests {
  @Test("async let children run on the scheduler, attributed to their parent")
  func asyncLetChildren() async throws {
    let execution = try await DeterministicScheduler.run(strategy: .random(seed: 4)) {
      async let first = child(1)
      async let second = child(2)
      return await first + second
    }
    #expect(execution.value == 3)
    let children = execution.trace.tasks.filter { $0.kind == .asyncLet }
    #expect(children.count == 2)
    #expect(children.allSatisfy { $0.parent == TaskID(0) })
    for child in children {
      let kinds = execution.trace.events.filter { $0.task == child.id }.map(\.kind)
      #expect(kinds.first == .spawned)
      #expect(kinds.last == .completed)
      #expect(kinds.filter { $0 == .started || $0 == .resumed }.count == 2)
    }
  }

  @Test("task-group children run on the scheduler with the names they were added with")
  func groupChildren() async throws {
    let execution = try await DeterministicScheduler.run(strategy: .random(seed: 9)) {
      await withTaskGroup(of: Int.self) { group in
        for index in 1...3 {
          group.addTask(name: "worker \(index)") { await child(index) }
        }
        return await group.reduce(0, +)
      }
    }
    #expect(execution.value == 6)
    let children = execution.trace.tasks.filter { $0.kind == .groupChild }
    #expect(children.map(\.name).sorted { ($0 ?? "") < ($1 ?? "") } == ["worker 1", "worker 2", "worker 3"])
    #expect(children.allSatisfy { $0.parent == TaskID(0) })
  }

  @Test("grandchildren are attributed to the child that created them")
  func nestedChildren() async throws {
    let execution = try await DeterministicScheduler.run {
      await withDiscardingTaskGroup { group in
        group.addTask(name: "outer") {
          async let inner = child(5)
          _ = await inner
        }
      }
    }
    let outer = try #require(execution.trace.tasks.first { $0.name == "outer" })
    let inner = try #require(execution.trace.tasks.first { $0.kind == .asyncLet })
    #expect(inner.parent == outer.id)
  }
}

/// A child's work: one suspension point, then a result.
@Sendable private func child(_ value: Int) async -> Int {
  await Task.yield()
  return value
}
