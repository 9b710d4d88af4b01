import EffectScheduler

/// Enumerates every schedule of a deterministic program exactly once, depth first: each run
/// replays the path of the previous one up to its last branch that has an untried option, takes
/// the next option there, and then always the first ready job.
///
/// With a preemption bound it only takes branches that keep the number of preemptions (switching
/// away from a task that could have gone on) within the bound, and it can ask for the schedules
/// with exactly that many, so that iterative context bounding tries each schedule once.
struct DepthFirstOracle: ExplorationOracle {
  /// A choice point of the current path. Its options are the ready positions in the order they
  /// are tried, the non-preempting one first in a bounded search, numbered from 0; the branch
  /// tries those numbered `current` up to `end`, so it needs no array of its own.
  fileprivate struct Branch: Sendable {
    var ready: [ReadyJob]
    var preemptionsBefore: Int
    /// The position tried first, ahead of the others; `nil` when they are tried in order.
    var first: Int?
    var current: Int
    var end: Int

    /// The ready position of the option being tried.
    var chosen: Int { position(ofOption: current) }

    func position(ofOption option: Int) -> Int {
      guard let first else { return option }
      if option == 0 { return first }
      return option <= first ? option - 1 : option
    }
  }

  /// A part of the search tree handed to another searcher: the choices that lead to its top, and
  /// the options at the top it is to try.
  struct Subtree: Sendable {
    fileprivate var path: [Branch]
  }

  private let preemptionBound: Int?
  private let exactPreemptions: Bool
  private var path: [Branch] = []
  private var started = false
  private var finished = false
  // Per run.
  private var preemptions = PreemptionTracker()

  /// - Parameters:
  ///   - preemptionBound: the most preemptions a schedule may have, or `nil` for no bound.
  ///   - exactPreemptions: whether a run with fewer preemptions than `preemptionBound` counts as
  ///     a repeat (``repeatedEarlierSchedule``), having been tried under a smaller bound.
  init(preemptionBound: Int? = nil, exactPreemptions: Bool = false) {
    self.preemptionBound = preemptionBound
    self.exactPreemptions = exactPreemptions
  }

  /// A search of `subtree` alone, which another search split off.
  init(subtree: Subtree) {
    self.init()
    path = subtree.path
  }

  /// Gives away part of what is left to search, for another searcher to take: half the untried
  /// options of the shallowest branch that has any, which the search then no longer tries itself.
  /// Call it between runs; returns `nil` when nothing is left to give.
  mutating func split() -> Subtree? {
    for depth in path.indices {
      let untried = path[depth].end - path[depth].current - 1
      guard untried > 0 else { continue }
      let given = (untried + 1) / 2
      path[depth].end -= given
      var prefix = Array(path[...depth])
      for index in prefix.indices { prefix[index].end = prefix[index].current + 1 }
      prefix[depth].current = path[depth].end
      prefix[depth].end = path[depth].end + given
      return Subtree(path: prefix)
    }
    return nil
  }

  var exhaustedSchedules: Bool { finished }
  var preemptionsSoFar: Int? { preemptions.count }

  mutating func beginRun() -> Bool {
    preemptions = PreemptionTracker()
    guard started else {
      started = true
      return true
    }
    // Backtrack to the deepest branch with an option left.
    while let last = path.last {
      if last.current + 1 < last.end {
        path[path.count - 1].current += 1
        return true
      }
      path.removeLast()
    }
    finished = true
    return false
  }

  mutating func nextJob(among ready: [ReadyJob], step: Int) throws -> Int {
    let position: Int
    if step < path.count {
      // The same choices so far must lead to the same ready jobs, or the program is not
      // deterministic and the search would miss or repeat schedules.
      guard path[step].ready == ready, path[step].preemptionsBefore == preemptions.count else {
        let expected = ScheduleChoice(picking: path[step].ready[path[step].chosen], at: path[step].chosen)
        throw ReplayDivergence(step: step, expected: expected, ready: ready)
      }
      position = path[step].chosen
    } else {
      let branch = newBranch(ready)
      path.append(branch)
      position = branch.chosen
    }
    preemptions.record(choosing: position, among: ready)
    return position
  }

  /// A branch over `ready`, whose options are the positions worth trying, the non-preempting one
  /// first in a bounded search.
  private func newBranch(_ ready: [ReadyJob]) -> Branch {
    var branch = Branch(ready: ready, preemptionsBefore: preemptions.count, first: nil, current: 0, end: ready.count)
    guard let bound = preemptionBound, let continuing = preemptions.continuing(among: ready) else { return branch }
    branch.first = continuing
    if preemptions.count >= bound { branch.end = 1 }
    return branch
  }

  /// In exact mode, whether this run's schedule has fewer preemptions than the bound and so was
  /// already tried under a smaller bound.
  var repeatedEarlierSchedule: Bool {
    guard exactPreemptions, let preemptionBound else { return false }
    return preemptions.count < preemptionBound
  }
}
