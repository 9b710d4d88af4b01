import BugCatalogue
import EffectScheduler
@testable import Explore
import ExploreTesting
import Testing

/// A reduced search split into shards (``ReducedDepthFirstSearch/init(shard:assumesNoUnseenSharing:)``):
/// the shards together see every outcome the whole search sees, each claims its part explored
/// when the whole search does (both assuming no unseen sharing, so that claims are made), and the
/// schedules they count add up to at least the whole search's.
// Serialized: its cases are CPU-bound searches, and run side by side they would starve the
// time-budgeted explorations of other suites.
@Suite("Sharded reduced search", .serialized)
struct ShardedReducedSearchTests {
  /// The outcomes of every shard of `count`, together, with whether each claimed every schedule,
  /// and how many schedules they counted and ran in all.
  private static func shards(
    _ count: Int, configuration: SchedulerConfiguration = SchedulerConfiguration(outsideWorldTimeout: .milliseconds(1)),
    _ program: @escaping @Sendable (AllOutcomes.Report) async throws -> Void
  ) async -> (outcomes: Set<String>, everyShardClaims: Bool, counted: Int) {
    var outcomes: Set<String> = []
    var claims = true
    var counted = 0
    for index in 1...count {
      let part = await AllOutcomes.of(
        ReducedDepthFirstSearch(shard: Shard(index: index, count: count), assumesNoUnseenSharing: true), configuration: configuration, program)
      outcomes.formUnion(part.outcomes)
      claims = claims && part.claimedEverySchedule
      counted += part.counted
    }
    return (outcomes, claims, counted)
  }

  @Test("on generated programs with cancellation and streams, the shards together see what the whole search sees", arguments: [2, 3])
  func generatedPrograms(count: Int) async {
    var seed: UInt64 = 31_000
    var compared = 0
    while compared < 12 {
      seed += 1
      let program = GeneratedProgram(seed: seed, taskCount: 2, withCancellation: seed % 2 == 0, withStreams: seed % 3 == 0)
      let whole = await AllOutcomes.of(ReducedDepthFirstSearch(assumesNoUnseenSharing: true), limit: 150) { await program.run(reporting: $0) }
      guard whole.complete, whole.schedules > 1 else { continue }
      compared += 1
      let split = await Self.shards(count) { await program.run(reporting: $0) }
      #expect(split.outcomes == whole.outcomes, "\(program)")
      #expect(split.everyShardClaims == whole.claimedEverySchedule, "\(program)")
      #expect(split.counted >= whole.counted, "\(program)")
    }
  }

  @Test("with two searchers sharing its choice points, on generated programs, it sees and claims what one searcher does")
  func sharedTree() async {
    var seed: UInt64 = 33_000
    var compared = 0
    while compared < 16 {
      seed += 1
      let program = GeneratedProgram(
        seed: seed, taskCount: 2, withCancellation: seed % 2 == 0, withStreams: seed % 4 == 1, withStructure: seed % 4 == 3)
      let whole = await AllOutcomes.of(ReducedDepthFirstSearch(assumesNoUnseenSharing: true), limit: 300) { await program.run(reporting: $0) }
      guard whole.complete, whole.schedules > 2 else { continue }
      compared += 1
      let shared = await AllOutcomes.ofSharedSearch(searchers: 2, limit: 1_000) { await program.run(reporting: $0) }
      #expect(shared.complete, "\(program)")
      #expect(shared.outcomes == whole.outcomes, "\(program)")
      #expect(shared.claimedEverySchedule == whole.claimedEverySchedule, "\(program)")
    }
  }

  @Test("on the catalogue, the shards of each fixed twin see what the whole search sees, and claim it", arguments: ClassicBug.all)
  func catalogue(bug: ClassicBug) async {
    let program: @Sendable (AllOutcomes.Report) async throws -> Void = { _ in try await bug.fixed() }
    let whole = await AllOutcomes.of(ReducedDepthFirstSearch(assumesNoUnseenSharing: true), limit: 500, program)
    guard whole.complete else { return }
    let split = await Self.shards(3, program)
    #expect(split.outcomes == whole.outcomes)
    #expect(split.everyShardClaims == whole.claimedEverySchedule)
  }

  @Test("with two searchers, finds every bug of the catalogue and passes every fixed twin", arguments: ClassicBug.all)
  func twoSearchers(bug: ClassicBug) async throws {
    var configuration = bug.configuration
    configuration.searchers = 2
    configuration.assumesNoUnseenSharing = true
    let strategy = ExplorationStrategy.reduced(maxSchedules: bug.exhaustiveLimit)
    _ = try await requireFailure(ExplorationFailure.self) {
      try await explore(strategy, configuration: configuration) { try await bug.buggy() }
    }
    let summary = try await explore(strategy, configuration: configuration) { try await bug.fixed() }
    #expect(ClassicBug.searchedAllItCould(summary) || bug.exhaustiveLimit != nil)
    #expect(summary.reductionCheck != nil)
  }

  @Test("a shard of a reduced search says which it is, and together the shards count at least the whole search's schedules")
  func shardSummaries() async throws {
    let bug = ClassicBug.all[0]
    let whole = try await explore(.reduced, configuration: bug.configuration) { try await bug.fixed() }
    var counted = 0
    for index in 1...3 {
      var configuration = bug.configuration
      configuration.shard = Shard(index: index, count: 3)
      let part = try await explore(.reduced, configuration: configuration) { try await bug.fixed() }
      #expect(part.exploredEverySchedule == whole.exploredEverySchedule)
      #expect(part.description.contains("shard \(index) of 3"))
      counted += part.schedules
    }
    #expect(counted >= whole.schedules)
  }
}
