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
