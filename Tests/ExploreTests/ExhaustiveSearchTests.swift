import EffectScheduler
import Effects
import Explore
import Testing

@Suite("Exhaustive search")
struct ExhaustiveSearchTests {
  /// `tasks` independent group children of `segments` segments each.
  static func independent(tasks: Int, segments: Int) -> @Sendable () async throws -> Void {
    {
      await withDiscardingTaskGroup { group in
        for _ in 0..<tasks {
          group.addTask {
            for _ in 1..<segments { await Task.yield() }
          }
        }
      }
    }
  }

  @Test(
    "N independent tasks of k segments have (N·k)!/(k!^N) schedules, each with its own trace",
    arguments: [(2, 2, 6), (2, 3, 20), (3, 2, 90), (3, 3, 1680)])
  func multinomialCount(tasks: Int, segments: Int, expected: Int) async throws {
    var configuration = ExploreConfiguration()
    configuration.checksDeterminism = false
    let summary = try await explore(.exhaustive, configuration: configuration, Self.independent(tasks: tasks, segments: segments))
    #expect(summary.schedules == expected)
    #expect(summary.distinctTraces == expected)
    #expect(summary.exploredEverySchedule)
  }
}

@Suite("Exhaustive search over a task tree")
struct TaskTreeCountTests {
  /// The number of orders of `segments` that respect `before` (each segment's predecessors).
  static func linearExtensions(of before: [String: [String]]) -> Int {
    let segments = before.keys.sorted()
    var counts: [Set<String>: Int] = [[]: 1]
    for _ in segments {
      var next: [Set<String>: Int] = [:]
      for (done, count) in counts {
        for segment in segments where !done.contains(segment) && before[segment, default: []].allSatisfy(done.contains) {
          next[done.union([segment]), default: 0] += count
        }
      }
      counts = next
    }
    return counts.values.reduce(0, +)
  }

  @Test("a child's segments come after the segment that spawned it; the count matches the tree")
  func treeCount() async throws {
    // root: spawns A and B in a discarding group, then R once both are done.
    // A: A0 spawns C (one segment), then A1.  B: B0, B1.
    let expected = Self.linearExtensions(of: [
      "A0": [], "A1": ["A0"], "B0": [], "B1": ["B0"], "C0": ["A0"], "R": ["A1", "B1"],
    ])
    var configuration = ExploreConfiguration()
    configuration.checksDeterminism = false
    let summary = try await explore(.exhaustive, configuration: configuration) {
      await withDiscardingTaskGroup { group in
        group.addTask(name: "A") {
          Task.effect(name: "C") {}
          await Task.yield()
        }
        group.addTask(name: "B") { await Task.yield() }
      }
    }
    #expect(expected == 26)
    #expect(summary.schedules == expected)
    #expect(summary.distinctTraces == expected)
  }
}
