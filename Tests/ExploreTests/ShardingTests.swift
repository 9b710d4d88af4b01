import EffectScheduler
@testable import Explore
import Synchronization
import Testing

/// What the runs of one exploration did, as each run records it.
private final class RunLog: Sendable {
  private let runs = Mutex<[String]>([])
  var recorded: [String] { runs.withLock { $0 } }
  func record(_ run: String) { runs.withLock { $0.append(run) } }
}

/// The order in which the segments of one run ran.
private final class SegmentOrder: Sendable {
  private let order = Mutex("")
  var text: String { order.withLock { $0 } }
  func ran(_ task: Int) { order.withLock { $0 += "\(task)" } }
}

/// `tasks` group children of `segments` segments each, as in the exhaustive search's tests, each
/// run recording into `log` the order in which the children's segments ran, which tells its
/// schedule apart from every other.
private func independent(tasks: Int, segments: Int, log: RunLog) -> @Sendable () async throws -> Void {
  {
    let order = SegmentOrder()
    await withDiscardingTaskGroup { group in
      for task in 0..<tasks {
        group.addTask {
          order.ran(task)
          for _ in 1..<segments {
            await Task.yield()
            order.ran(task)
          }
        }
      }
    }
    log.record(order.text)
  }
}

private func configuration(_ shard: Shard?, searchers: Int = 1) -> ExploreConfiguration {
  var configuration = ExploreConfiguration(progressInterval: nil, searchers: searchers, shard: shard)
  configuration.checksDeterminism = false
  return configuration
}

/// Explores 3 children × 3 segments with `strategy` once a shard; returns each shard's summary
/// and the runs it recorded.
private func exploreShards(
  _ count: Int, _ strategy: ExplorationStrategy, searchers: Int = 1
) async throws -> [(summary: ExplorationSummary, runs: [String])] {
  var shards: [(ExplorationSummary, [String])] = []
  for index in 1...count {
    let log = RunLog()
    let summary = try await explore(
      strategy, configuration: configuration(Shard(index: index, count: count), searchers: searchers),
      independent(tasks: 3, segments: 3, log: log))
    shards.append((summary, log.recorded))
  }
  return shards
}

@Suite("Sharding a search among processes")
struct ShardingTests {
  @Test(
    "n shards of an exhaustive search run disjoint schedules whose union is all 1,680, each shard its share once",
    arguments: [(1, 1), (2, 1), (3, 1), (5, 1), (2, 2), (3, 2)])
  func exhaustiveShards(count: Int, searchers: Int) async throws {
    let shards = try await exploreShards(count, .exhaustive, searchers: searchers)
    var union: Set<String> = []
    for (index, shard) in shards.enumerated() {
      #expect(shard.summary.shard == Shard(index: index + 1, count: count))
      #expect(shard.summary.claimsEverySchedule(assuming: [.synchronizationRanWhole]), "\(shard.summary)")
      // Every run the shard made is one it counts, and none repeats.
      #expect(shard.runs.count == shard.summary.schedules)
      #expect(Set(shard.runs).count == shard.runs.count)
      #expect(union.isDisjoint(with: shard.runs))
      union.formUnion(shard.runs)
      // Reasonably even: no shard gets less than half its fair share.
      #expect(shard.runs.count * count * 2 >= 1680, "shard \(index + 1) of \(count) ran \(shard.runs.count)")
    }
    #expect(union.count == 1680)
  }

  @Test("n shards of a preemption-bounded search together count every schedule of the unsharded search once",
        arguments: [2, 3, 5])
  func preemptionBoundedShards(count: Int) async throws {
    let log = RunLog()
    let whole = try await explore(.preemptionBounded(1), configuration: configuration(nil), independent(tasks: 3, segments: 3, log: log))
    let shards = try await exploreShards(count, .preemptionBounded(1))
    #expect(shards.map(\.summary.schedules).reduce(0, +) == whole.schedules)
    #expect(shards.allSatisfy { $0.summary.everyScheduleWithPreemptions == 1 })
    // A bound-1 search runs the schedules with no preemption again, uncounted, so runs are
    // compared as sets here; the search's own tests show the shards' counted runs are disjoint.
    #expect(shards.reduce(into: Set<String>()) { $0.formUnion($1.runs) } == Set(log.recorded))
    #expect(shards.allSatisfy { $0.summary.schedules < whole.schedules })
  }

  @Test("random runs are dealt out round-robin: the shards' runs together are the unsharded search's")
  func randomShards() async throws {
    let whole = try await explore(.random(schedules: 100), configuration: configuration(nil), independent(tasks: 3, segments: 3, log: RunLog()))
    let shards = try await exploreShards(3, .random(schedules: 100))
    #expect(shards.map(\.summary.schedules) == [34, 33, 33])
    #expect(shards.map(\.summary.schedules).reduce(0, +) == whole.schedules)
    #expect(shards[1].summary.strategy.hasSuffix("shard 2 of 3 makes runs 2, 5, 8, … of each random or PCT sequence"))
  }

  /// The children share a `Mutex`, which the scheduler cannot see, so each shard's reduced part
  /// claims nothing after its first run, and its exhaustive part settles the shard.
  @Test("the default portfolio shards its reduced and exhaustive parts, and each shard settles its share")
  func portfolioShards() async throws {
    var shardsRun = 0
    for index in 1...2 {
      var configuration = configuration(Shard(index: index, count: 2))
      configuration.portfolioBudget = PortfolioBudget(time: nil)
      let summary = try await explore(.default, configuration: configuration, independent(tasks: 3, segments: 3, log: RunLog()))
      #expect(summary.claimsEverySchedule(assuming: [.synchronizationRanWhole]), "\(summary)")
      #expect(summary.portfolioParts.map(\.part) == [.reduced, .exhaustive])
      shardsRun += summary.portfolioParts[1].schedules
    }
    #expect(shardsRun == 1680)
  }

  @Test("a shard's summary says which shard it ran and claims only that shard's share")
  func summaryNamesShard() async throws {
    let exhaustive = try await explore(
      .exhaustive, configuration: configuration(Shard(index: 2, count: 4)), independent(tasks: 2, segments: 2, log: RunLog()))
    #expect(exhaustive.shard == Shard(index: 2, count: 4))
    #expect(exhaustive.description.hasPrefix("shard 2 of 4: \(exhaustive.schedules) schedules"))
    #expect(exhaustive.description.contains("every schedule of this shard explored"))
    let bounded = try await explore(
      .preemptionBounded(1), configuration: configuration(Shard(index: 1, count: 2)), independent(tasks: 2, segments: 2, log: RunLog()))
    #expect(bounded.description.contains("every schedule of this shard with at most 1 preemptions explored"))
    let whole = try await explore(.exhaustive, configuration: configuration(nil), independent(tasks: 2, segments: 2, log: RunLog()))
    #expect(whole.shard == nil)
    #expect(!whole.description.contains("shard"))
  }
}
