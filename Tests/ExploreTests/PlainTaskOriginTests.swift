import EffectScheduler
import Effects
import Explore
import ExploreTesting
import Testing

/// A model that starts its search as a plain task.
private struct SearchModel: Sendable {
  static let taskLine = #line + 3

  func search() -> Task<Int, Never> {
    Task { 3 }
  }
}

/// A count whose increment reads, suspends, then writes: one of two increments may be lost.
private actor Hits {
  var value = 0

  func increment() async {
    let read = value
    await Task.yield()
    value = read + 1
  }
}

@Suite("A plain task without a name is named by where it was created")
struct PlainTaskOriginTests {
  @Test("Task {}, Task.detached {} and Task.effect {} are each named by the line that made them; a name wins")
  func namedByTheirLine() async throws {
    let line = #line + 4
    let execution = try await DeterministicScheduler.run {
      let inMethod = SearchModel().search()
      async let inChild = 0
      let inClosure = Task { 1 }
      let detached = Task.detached { 2 }
      let effect = Task.effect { 4 }
      // It suspends: the scheduler learns a plain task's name from a job it hands over.
      let named = Task(name: "named") {
        await Task.yield()
        return 5
      }
      _ = await (inMethod.value, inChild, inClosure.value, detached.value, effect.value, named.value)
    }
    let file = "PlainTaskOriginTests.swift"
    #expect(
      execution.trace.tasks.map(\.description) == [
        "#0 root", "#1 Task at \(file):\(SearchModel.taskLine)", "#2 async let", "#3 Task at \(file):\(line)",
        "#4 Task at \(file):\(line + 1)", "#5 Task at \(file):\(line + 2)", "#6 named",
      ])
    #expect(execution.trace.tasks.map(\.kind) == [.root, .unstructured, .asyncLet, .unstructured, .unstructured, .unstructured, .unstructured])
    #expect(execution.trace.tasks[1].origin == "Task at \(file):\(SearchModel.taskLine)")
    #expect(execution.trace.tasks[2].origin == nil)
  }

  @Test("a failing exploration's trace heads the plain task's column with where it was created")
  func reportColumn() async throws {
    let line = #line + 4
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: ExploreConfiguration(progressInterval: nil)) {
        let hits = Hits()
        let search = Task { await hits.increment() }
        await hits.increment()
        await search.value
        #expect(await hits.value == 2)
      }
    }
    let header = try #require(failure.trace?.table.split(separator: "\n").first)
    #expect(header.contains("| #1 Task at PlainTaskOriginTests.swift:\(line) |"), "\(failure)")
  }
}
