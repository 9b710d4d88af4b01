import EffectScheduler

/// Enumerates every schedule of a deterministic program exactly once, depth first: each run
/// replays the path of the previous one up to its last branch that has an untried option, takes
/// the next option there, and then always the first ready job.
///
/// With a preemption bound it only takes branches that keep the number of preemptions (switching
/// away from a task that could have gone on) within the bound, and it can ask for the schedules
/// with exactly that many, so that iterative context bounding tries each schedule once. With a
/// shard it only takes the options its shard has a share in (see ``Shard`` and ``ShardedOptions``).
struct DepthFirstOracle: ExplorationOracle {
  /// A choice point of the current path. Its options are the ready positions in the order they
  /// are tried, the non-preempting one first in a bounded search, numbered from 0; the branch
  /// tries those numbered `current` up to `end`, so it needs no array of its own.
  fileprivate struct Branch: Sendable {
    var ready: [ReadyJob]
    var preemptionsBefore: Int
    /// The position tried first, ahead of the others; `nil` when they are tried in order.
    var first: Int?
    /// In a sharded search, how the shards whose schedules pass through here share the options
    /// out; the branch's options are then the ones this search's shard has a share in. `nil` when
    /// the search is not sharded or the schedules through here are its shard's alone.
    var sharing: ShardedOptions?
    var current: Int
    var end: Int
    /// The ready position of the option being tried. It is kept, not worked out again, because
    /// every replayed step of every run reads it.
    private(set) var chosen: Int

    init(ready: [ReadyJob], preemptionsBefore: Int, first: Int?, sharing: ShardedOptions?, end: Int) {
      self.ready = ready
      self.preemptionsBefore = preemptionsBefore
      self.first = first
      self.sharing = sharing
      current = 0
      self.end = end
      chosen = 0
      chosen = position(ofOption: 0)
    }

    /// Makes `option` the one being tried.
    mutating func tryOption(_ option: Int) {
      current = option
      chosen = position(ofOption: option)
    }

    private func position(ofOption option: Int) -> Int {
      let option = sharing?.option(option) ?? option
      guard let first else { return option }
      if option == 0 { return first }
      return option <= first ? option - 1 : option
    }

    /// The shards whose schedules pass through the option being tried, if that is more than one.
    var sharedBelow: Range<Int>? {
      guard let below = sharing?.group(below: current), below.count > 1 else { return nil }
      return below
    }
  }

  /// A part of the search tree handed to another searcher: the choices that lead to its top, and
  /// the options at the top it is to try.
  struct Subtree: Sendable {
    fileprivate var path: [Branch]
    fileprivate var shard: Shard?
  }

  private let preemptionBound: Int?
  private let exactPreemptions: Bool
  private let shard: Shard?
  /// In a sharded search, the shards sharing the first branch (all of them), and this search's
  /// shard among them, counting from 0.
  private let sharedAtTop: (group: Range<Int>, shard: Int)?
  private var path: [Branch] = []
  private var started = false
  private var finished = false
  // Per run.
  private var preemptions = PreemptionTracker()

  /// - Parameters:
  ///   - preemptionBound: the most preemptions a schedule may have, or `nil` for no bound.
  ///   - exactPreemptions: whether a run with fewer preemptions than `preemptionBound` is left
  ///     uncounted (``countedElsewhere``), having been tried under a smaller bound.
  ///   - shard: the part of the search to run, or `nil` for all of it; see ``Shard``.
  init(preemptionBound: Int? = nil, exactPreemptions: Bool = false, shard: Shard? = nil) {
    self.preemptionBound = preemptionBound
    self.exactPreemptions = exactPreemptions
    self.shard = shard
    sharedAtTop = shard.flatMap { $0.count > 1 ? (0..<$0.count, $0.index - 1) : nil }
  }

  /// A search of `subtree` alone, which another search split off.
  init(subtree: Subtree) {
    self.init(shard: subtree.shard)
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
      prefix[depth].tryOption(path[depth].end)
      prefix[depth].end = path[depth].end + given
      return Subtree(path: prefix, shard: shard)
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
        path[path.count - 1].tryOption(last.current + 1)
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
  /// first in a bounded search, and in a sharded one only those its shard has a share in.
  private func newBranch(_ ready: [ReadyJob]) -> Branch {
    var first: Int?
    var end = ready.count
    if let bound = preemptionBound, let continuing = preemptions.continuing(among: ready) {
      first = continuing
      if preemptions.count >= bound { end = 1 }
    }
    guard sharedAtTop != nil, let shared = sharedBelowPath else {
      return Branch(ready: ready, preemptionsBefore: preemptions.count, first: first, sharing: nil, end: end)
    }
    let sharing = ShardedOptions(group: shared.group, shard: shared.shard, options: end)
    return Branch(ready: ready, preemptionsBefore: preemptions.count, first: first, sharing: sharing, end: sharing.count)
  }

  /// In a sharded search, the shards whose schedules pass through the current path, if that is
  /// more than one, and this search's shard among them.
  private var sharedBelowPath: (group: Range<Int>, shard: Int)? {
    guard let last = path.last else { return sharedAtTop }
    return last.sharedBelow.flatMap { group in sharedAtTop.map { (group, $0.shard) } }
  }

  /// Whether the run just made is counted elsewhere: in exact mode, a schedule with fewer
  /// preemptions than the bound, tried under a smaller bound; in a sharded search, a schedule
  /// that ended while several shards shared it, which the first of them counts.
  var countedElsewhere: Bool {
    if exactPreemptions, let preemptionBound, preemptions.count < preemptionBound { return true }
    guard sharedAtTop != nil, let shared = sharedBelowPath else { return false }
    return shared.group.lowerBound != shared.shard
  }
}
