import EffectScheduler
@testable import Explore
import Testing

@Suite("Preemption-bounded search")
struct PreemptionBoundedSearchTests {
  @Test("with a bound above any schedule's preemptions, it counts every schedule exactly once")
  func coversEverySchedule() async throws {
    var configuration = ExploreConfiguration()
    configuration.checksDeterminism = false
    let summary = try await explore(
      .preemptionBounded(12), configuration: configuration, ExhaustiveSearchTests.independent(tasks: 2, segments: 3))
    #expect(summary.schedules == 20)
    #expect(summary.distinctTraces == 20)
    #expect(summary.everyScheduleWithPreemptions == 12)
    #expect(summary.description.contains("every schedule with at most 12 preemptions explored"))
  }

  @Test("a schedule limit that stops the search before its bound is covered claims no coverage")
  func limitedSearchClaimsNoCoverage() async throws {
    var configuration = ExploreConfiguration()
    configuration.checksDeterminism = false
    let summary = try await explore(
      .preemptionBounded(2, maxSchedules: 5), configuration: configuration,
      ExhaustiveSearchTests.independent(tasks: 3, segments: 3))
    #expect(summary.schedules == 5)
    #expect(summary.everyScheduleWithPreemptions == nil)
    #expect(!summary.description.contains("preemptions explored"))
  }

  @Test("a small bound tries fewer schedules than there are")
  func smallBound() async throws {
    var configuration = ExploreConfiguration()
    configuration.checksDeterminism = false
    let summary = try await explore(
      .preemptionBounded(0), configuration: configuration, ExhaustiveSearchTests.independent(tasks: 3, segments: 3))
    #expect(summary.schedules >= 1)
    #expect(summary.schedules < 1680)
    #expect(summary.schedules == summary.distinctTraces)
    #expect(!summary.exploredEverySchedule)
    #expect(summary.everyScheduleWithPreemptions == 0)
  }
  /// `children` group children that each update one actor, yield, and update it again.
  static func actorUpdates(children: Int) -> @Sendable () async throws -> Void {
    {
      let tally = Tally()
      await withDiscardingTaskGroup { group in
        for _ in 0..<children {
          group.addTask {
            await tally.add()
            await Task.yield()
            await tally.add()
          }
        }
      }
    }
  }

  @Test("where most schedules need more preemptions than the bound, it runs only those within it")
  func boundRunsFewerSchedules() async throws {
    var configuration = ExploreConfiguration()
    configuration.checksDeterminism = false
    let bounded = try await explore(.preemptionBounded(2), configuration: configuration, Self.actorUpdates(children: 3))
    #expect(bounded.everyScheduleWithPreemptions == 2)
    #expect(bounded.schedules == bounded.distinctTraces)
    // An exhaustive search given as many schedules is far from done: it needed more.
    let exhaustive = try await explore(
      .exhaustive(maxSchedules: bounded.schedules), configuration: configuration, Self.actorUpdates(children: 3))
    #expect(!exhaustive.exploredEverySchedule)
  }

  @Test("where every schedule is within the bound, it runs exactly the schedules an exhaustive search runs")
  func boundAboveEveryScheduleCostsNoMore() async throws {
    var configuration = ExploreConfiguration()
    configuration.checksDeterminism = false
    let exhaustive = try await explore(.exhaustive, configuration: configuration, Self.actorUpdates(children: 2))
    let bounded = try await explore(.preemptionBounded(50), configuration: configuration, Self.actorUpdates(children: 2))
    #expect(bounded.schedules == exhaustive.schedules)
    #expect(bounded.distinctTraces == exhaustive.distinctTraces)
  }
}

@Suite("Depth-first search under a preemption bound")
struct BoundedDepthFirstSearchTests {
  /// Three tasks that each run, step onto an actor, and run again: the search is driven here by
  /// hand, with the ready jobs such a program offers, so every schedule can be listed.
  static func schedules(preemptionBound: Int?) throws -> [(steps: [Int], preemptions: Int)] {
    var search = DepthFirstSearch(preemptionBound: preemptionBound)
    var found: [(steps: [Int], preemptions: Int)] = []
    while search.beginRun() {
      var next = [0, 0, 0]
      var steps: [Int] = []
      while true {
        let waiting = (0..<3).filter { next[$0] < 3 }
        if waiting.isEmpty { break }
        // The second segment of each task is the actor's job, scheduled by the task.
        let ready = waiting.map { task in
          next[task] == 1 ? ReadyJob(task: nil, scheduledBy: TaskID(task)) : ReadyJob(task: TaskID(task))
        }
        let position = try search.nextJob(among: ready, step: steps.count)
        steps.append(waiting[position])
        next[waiting[position]] += 1
      }
      try search.runDidFinish(steps: steps.count)
      found.append((steps, search.preemptionsSoFar ?? -1))
    }
    return found
  }

  @Test("each bound tries every schedule within it exactly once, and none beyond it", arguments: [0, 1, 2, 3])
  func boundIsExact(bound: Int) throws {
    let all = try Self.schedules(preemptionBound: nil)
    #expect(all.count == 1680)
    let within = Set(all.filter { $0.preemptions <= bound }.map(\.steps))
    let bounded = try Self.schedules(preemptionBound: bound)
    #expect(bounded.allSatisfy { $0.preemptions <= bound })
    #expect(Set(bounded.map(\.steps)) == within)
    #expect(bounded.count == within.count)
  }
}

private actor Tally {
  private var count = 0
  func add() { count += 1 }
}
