import EffectScheduler
@testable import Explore
import Testing

/// A made-up program whose ready jobs at each step follow from the choices made before: up to
/// four jobs of tasks #1 to #4, none once a run ends. Runs end at every depth up to 8, many of them
/// before a search could split among several shards, and branches have 1 to 4 options.
private struct MadeUpProgram {
  let seed: UInt64

  func ready(after choices: [Int]) -> [ReadyJob] {
    guard choices.count < 8 else { return [] }
    var generator = SeededGenerator(seed: choices.reduce(seed) { $0 &* 31 &+ UInt64($1 + 1) })
    let count = choices.isEmpty ? 1 + generator.below(4) : generator.below(5)
    let firstTask = generator.below(4)
    return (0..<count).map { ReadyJob(task: TaskID(1 + (firstTask + $0) % 4)) }
  }

  /// The choices of every run `search` makes of this program that it counts.
  func countedRuns(_ search: DepthFirstSearch) throws -> [[Int]] {
    var search = search
    var runs: [[Int]] = []
    while search.beginRun() {
      var choices: [Int] = []
      while case let ready = self.ready(after: choices), !ready.isEmpty {
        choices.append(try search.nextJob(among: ready, step: choices.count))
      }
      if !search.countedElsewhere { runs.append(choices) }
    }
    return runs
  }
}

/// Checks that the shards' counted runs are disjoint, have no repeats and together are `whole`.
private func expectPartition(_ shards: [[[Int]]], of whole: [[Int]], sourceLocation: SourceLocation = #_sourceLocation) {
  var union: Set<[Int]> = []
  for runs in shards {
    #expect(Set(runs).count == runs.count, sourceLocation: sourceLocation)
    #expect(union.isDisjoint(with: runs), sourceLocation: sourceLocation)
    union.formUnion(runs)
  }
  #expect(union == Set(whole), sourceLocation: sourceLocation)
  #expect(shards.map(\.count).reduce(0, +) == whole.count, sourceLocation: sourceLocation)
}

@Suite("Sharded search trees and seed sequences")
struct ShardedSearchTests {
  @Test("the shards of a depth-first search of uneven trees partition its schedules", arguments: 1...8)
  func exhaustivePartition(count: Int) throws {
    for seed: UInt64 in 1...20 {
      let program = MadeUpProgram(seed: seed)
      let whole = try program.countedRuns(DepthFirstSearch())
      let shards = try (1...count).map { try program.countedRuns(DepthFirstSearch(shard: Shard(index: $0, count: count))) }
      expectPartition(shards, of: whole)
    }
  }

  @Test("the shards of each exact preemption bound partition that bound's schedules", arguments: [2, 3, 5])
  func preemptionBoundPartition(count: Int) throws {
    for seed: UInt64 in 1...20 {
      let program = MadeUpProgram(seed: seed)
      for bound in 0...2 {
        let whole = try program.countedRuns(DepthFirstSearch(preemptionBound: bound, exactPreemptions: bound > 0))
        let shards = try (1...count).map {
          try program.countedRuns(DepthFirstSearch(preemptionBound: bound, exactPreemptions: bound > 0, shard: Shard(index: $0, count: count)))
        }
        expectPartition(shards, of: whole)
      }
    }
  }

  @Test("a schedule with no choice at all belongs to shard 1")
  func singleScheduleGoesToTheFirstShard() throws {
    let program = { (choices: [Int]) in choices.count < 3 ? [ReadyJob(task: TaskID(1))] : [] }
    for index in 1...3 {
      var search = DepthFirstSearch(shard: Shard(index: index, count: 3))
      let began = search.beginRun()
      #expect(began)
      var choices: [Int] = []
      while case let ready = program(choices), !ready.isEmpty {
        choices.append(try search.nextJob(among: ready, step: choices.count))
      }
      #expect(search.countedElsewhere == (index != 1))
      let beganAgain = search.beginRun()
      #expect(!beganAgain)
    }
  }

  @Test("a shard's share, split among searchers, is still run once", arguments: [2, 3])
  func splitShard(count: Int) throws {
    let program = MadeUpProgram(seed: 7)
    for index in 1...count {
      let shard = Shard(index: index, count: count)
      let whole = try program.countedRuns(DepthFirstSearch(shard: shard))
      // Run two schedules, hand half of what is left to a second searcher, and finish both.
      var first = DepthFirstSearch(shard: shard)
      var runs: [[Int]] = []
      for _ in 0..<2 {
        guard first.beginRun() else { break }
        var choices: [Int] = []
        while case let ready = program.ready(after: choices), !ready.isEmpty {
          choices.append(try first.nextJob(among: ready, step: choices.count))
        }
        if !first.countedElsewhere { runs.append(choices) }
      }
      let second = first.split().map(DepthFirstSearch.init(subtree:))
      runs += try program.countedRuns(first) + (second.map(program.countedRuns) ?? [])
      expectPartition([runs], of: whole)
    }
  }

  @Test("random and PCT shards make the runs numbered i, i + n, … of the unsharded seed sequence", arguments: [1, 2, 3, 7])
  func seedSequences(count: Int) {
    func seeds(_ shard: Shard?) -> (random: [UInt64], pct: [UInt64]) {
      var random = RandomSearch(schedules: 50, seed: 99, shard: shard)
      var pct = PCTSearch(depth: 3, schedules: 50, expectedSteps: 10, seed: 99, shard: shard)
      var result: (random: [UInt64], pct: [UInt64]) = ([], [])
      while random.beginRun() { result.random.append(random.seed!) }
      while pct.beginRun() { result.pct.append(pct.seed!) }
      return result
    }
    let whole = seeds(nil)
    #expect(whole.random.first == 99)
    for index in 1...count {
      let shard = seeds(Shard(index: index, count: count))
      let numbers = Array(stride(from: index - 1, to: 50, by: count))
      #expect(shard.random == numbers.map { whole.random[$0] })
      #expect(shard.pct == numbers.map { whole.pct[$0] })
    }
  }
}
