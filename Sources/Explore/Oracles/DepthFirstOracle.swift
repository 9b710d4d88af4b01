import EffectScheduler

/// Enumerates every schedule of a deterministic program exactly once, depth first: each run
/// replays the path of the previous one up to its last branch that has an untried option, takes
/// the next option there, and then always the first ready job.
///
/// With a preemption bound it only takes branches that keep the number of preemptions (switching
/// away from a task that could have gone on) within the bound, and it can ask for the schedules
/// with exactly that many, so that iterative context bounding tries each schedule once.
struct DepthFirstOracle: ExplorationOracle {
  fileprivate struct Branch: Sendable {
    var chosen: Int
    var options: [Int]
    var ready: [ReadyJob]
    var preemptionsBefore: Int
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
      let branch = path[depth]
      let untried = branch.options.count - branch.options.firstIndex(of: branch.chosen)! - 1
      guard untried > 0 else { continue }
      let given = Array(branch.options.suffix((untried + 1) / 2))
      path[depth].options.removeLast(given.count)
      var prefix = path[...depth].map { branch in
        Branch(chosen: branch.chosen, options: [branch.chosen], ready: branch.ready, preemptionsBefore: branch.preemptionsBefore)
      }
      prefix[depth].options = given
      prefix[depth].chosen = given[0]
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
      let next = last.options.firstIndex(of: last.chosen)! + 1
      if next < last.options.count {
        path[path.count - 1].chosen = last.options[next]
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
      let options = allowedOptions(ready)
      path.append(Branch(chosen: options[0], options: options, ready: ready, preemptionsBefore: preemptions.count))
      position = options[0]
    }
    preemptions.record(choosing: position, among: ready)
    return position
  }

  /// The positions worth trying at a new branch, the non-preempting one first.
  private func allowedOptions(_ ready: [ReadyJob]) -> [Int] {
    let all = Array(ready.indices)
    guard let bound = preemptionBound else { return all }
    guard let continuing = preemptions.continuing(among: ready) else { return all }
    if preemptions.count >= bound { return [continuing] }
    return [continuing] + all.filter { $0 != continuing }
  }

  /// In exact mode, whether this run's schedule has fewer preemptions than the bound and so was
  /// already tried under a smaller bound.
  var repeatedEarlierSchedule: Bool {
    guard exactPreemptions, let preemptionBound else { return false }
    return preemptions.count < preemptionBound
  }
}
