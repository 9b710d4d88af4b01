import EffectScheduler
@testable import Explore
import Testing

/// PCT as first written, looking at every ready job each step: the oracle for the search that
/// keeps its ready jobs by priority from step to step (``ReadyPriorities``).
private struct LookingPCT {
  let depth: Int
  var generator: SeededGenerator
  var priorities: [TaskID: UInt64] = [:]
  var changePoints: [Int: Int] = [:]
  var postponedLevels: [Int] = []
  var timerPriority: UInt64?

  init(depth: Int, expectedSteps: Int, seed: UInt64) {
    self.depth = depth
    generator = SeededGenerator(seed: seed)
    for level in 1..<depth { changePoints[generator.below(expectedSteps)] = level }
  }

  mutating func nextJob(among ready: [ReadyJob], step: Int) -> Int {
    var best = highestPriority(ready)
    if let level = changePoints[step] { postponedLevels.append(level) }
    while let level = postponedLevels.first, let task = ready[best].owner {
      postponedLevels.removeFirst()
      priorities[task] = UInt64(level)
      best = highestPriority(ready)
    }
    return best
  }

  mutating func highestPriority(_ ready: [ReadyJob]) -> Int {
    var best = 0
    var bestPriority: UInt64 = 0
    for position in ready.indices {
      var priority = UInt64.max
      if ready[position].firesTimer {
        if timerPriority == nil { timerPriority = UInt64(depth) + generator.next() % (UInt64.max / 2) }
        priority = timerPriority ?? 0
      } else if let task = ready[position].owner {
        if priorities[task] == nil { priorities[task] = UInt64(depth) + generator.next() % (UInt64.max / 2) }
        priority = priorities[task]!
      }
      if position == 0 || priority > bestPriority {
        best = position
        bestPriority = priority
      }
    }
    return best
  }
}

@Suite("PCT's ready jobs kept by priority")
struct PCTReadyPrioritiesTests {
  /// Runs a made-up program as the scheduler would, jobs added at the end and the one picked
  /// taken out, under the search and under the oracle, and returns both runs' picks. `seed`
  /// decides the jobs each step adds (of tasks #1 to #6, actors' jobs of a task or of none),
  /// whether a timer's choice is offered, and whether the scheduler says what it kept.
  private static func picks(seed: UInt64, depth: Int) -> (kept: [[Int]], looked: [[Int]]) {
    var search = PCTSearch(depth: depth, schedules: 20, expectedSteps: 12, seed: seed)
    var kept: [[Int]] = []
    var looked: [[Int]] = []
    while search.beginRun() {
      var oracle = LookingPCT(depth: depth, expectedSteps: 12, seed: search.seed!)
      var program = SeededGenerator(seed: search.seed! &+ 1)
      var ready = [ReadyJob(task: TaskID(1))]
      var told: Int?
      var (searchPicks, oraclePicks): ([Int], [Int]) = ([], [])
      for step in 0..<30 {
        for _ in 0..<program.below(3) {
          let task = TaskID(1 + program.below(6))
          switch program.below(4) {
          case 0: ready.append(ReadyJob(task: nil, scheduledBy: task))
          case 1: ready.append(ReadyJob(task: nil, arrivedFromOutside: true))
          default: ready.append(ReadyJob(task: task))
          }
        }
        guard !ready.isEmpty else { break }
        let offered = program.below(4) == 0 ? ready + [.timer] : ready
        let says = program.below(6) != 0
        let picked = search.nextJob(among: offered, step: step, kept: says ? told : nil)
        searchPicks.append(picked)
        oraclePicks.append(oracle.nextJob(among: offered, step: step))
        if picked < ready.count { ready.remove(at: picked) }
        told = ready.count
      }
      kept.append(searchPicks)
      looked.append(oraclePicks)
    }
    return (kept, looked)
  }

  @Test("picks what a look at every ready job picks, timers and change points among them", arguments: [1, 2, 3, 4])
  func sameAsLooking(depth: Int) {
    for seed: UInt64 in 1...25 {
      let (kept, looked) = Self.picks(seed: seed, depth: depth)
      #expect(kept == looked, "seed \(seed)")
    }
  }
}
