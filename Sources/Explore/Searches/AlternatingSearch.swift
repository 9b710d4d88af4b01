import EffectScheduler

/// Two searches taking turns run by run, the first going first. Once one has nothing left to try,
/// the other goes on alone; the search ends when neither has anything left.
struct AlternatingSearch<First: ExplorationSearch, Second: ExplorationSearch>: ExplorationSearch {
  private(set) var first: First
  private(set) var second: Second
  /// Whether the run under way is the second search's.
  private(set) var secondsTurn = true
  /// How many runs each search has begun.
  private(set) var runs: (first: Int, second: Int) = (0, 0)
  private var firstDone = false
  private var secondDone = false

  init(_ first: First, _ second: Second) {
    self.first = first
    self.second = second
  }

  mutating func beginRun() -> Bool {
    // The other's turn, unless it has nothing left.
    for _ in 0..<2 {
      secondsTurn.toggle()
      if secondsTurn, !secondDone {
        if second.beginRun() {
          runs.second += 1
          return true
        }
        secondDone = true
      } else if !secondsTurn, !firstDone {
        if first.beginRun() {
          runs.first += 1
          return true
        }
        firstDone = true
      }
    }
    return false
  }

  mutating func nextJob(among ready: [ReadyJob], step: Int) throws -> Int {
    try nextJob(among: ready, step: step, kept: nil)
  }

  /// Hands the choice, with what the scheduler said it kept, to the search whose turn it is: the
  /// run is that search's alone, so the step before was its too.
  mutating func nextJob(among ready: [ReadyJob], step: Int, kept: Int?) throws -> Int {
    secondsTurn ? try second.nextJob(among: ready, step: step, kept: kept) : try first.nextJob(among: ready, step: step, kept: kept)
  }

  mutating func runDidFinish(steps: Int) throws {
    if secondsTurn { try second.runDidFinish(steps: steps) } else { try first.runDidFinish(steps: steps) }
  }

  var seed: UInt64? { secondsTurn ? second.seed : first.seed }
  var exhaustedSchedules: Bool { first.exhaustedSchedules && second.exhaustedSchedules }
  var countedElsewhere: Bool { secondsTurn ? second.countedElsewhere : first.countedElsewhere }
  var preemptionsSoFar: Int? { secondsTurn ? second.preemptionsSoFar : first.preemptionsSoFar }
}
