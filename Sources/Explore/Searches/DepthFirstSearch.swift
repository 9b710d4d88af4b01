import EffectScheduler

/// Enumerates every schedule of a deterministic program exactly once, depth first: each run
/// replays the path of the previous one up to its last branch that has an untried option, takes
/// the next option there, and then always the first ready job.
///
/// With a preemption bound it only takes branches that keep the number of preemptions (switching
/// away from a task that could have gone on) within the bound, and it can ask for the schedules
/// with exactly that many, so that iterative context bounding tries each schedule once. With a
/// shard it only takes the options its shard has a share in (see ``Shard`` and ``ShardedOptions``).
struct DepthFirstSearch: SplittableSearch {
  /// A choice point of the current path. Its options are the ready positions in the order they
  /// are tried, the non-preempting one first in a bounded search, numbered from 0; the branch
  /// tries those numbered `current` up to `end`, so it needs no array of its own.
  fileprivate struct Branch: Sendable {
    /// Where the choice point's own ready jobs start in the search's ``readyJobs``: those after
    /// the `kept` it shares with the branch before it.
    var readyStart: Int
    var readyCount: Int
    /// How many of the ready jobs are the first of the branch before it, less the job picked there.
    var kept: Int
    var preemptionsBefore: Int
    /// The position tried first, ahead of the others; `nil` when they are tried in order.
    var first: Int?
    var current: Int
    var end: Int
    /// The ready position of the option being tried. It is kept, not worked out again, because
    /// every replayed step of every run reads it.
    private(set) var chosen: Int

    /// A branch trying its first option; `sharing` says which of the ready jobs' options are its
    /// options in a sharded search.
    init(readyStart: Int, readyCount: Int, kept: Int, preemptionsBefore: Int, first: Int?, end: Int, sharing: ShardedOptions?) {
      self.readyStart = readyStart
      self.readyCount = readyCount
      self.kept = kept
      self.preemptionsBefore = preemptionsBefore
      self.first = first
      current = 0
      self.end = end
      chosen = 0
      tryOption(0, sharing: sharing)
    }

    /// Makes `option` the one being tried; `sharing` as for ``init``.
    mutating func tryOption(_ option: Int, sharing: ShardedOptions?) {
      current = option
      let option = sharing?.option(option) ?? option
      guard let first else {
        chosen = option
        return
      }
      chosen = option == 0 ? first : option <= first ? option - 1 : option
    }
  }

  /// A part of the search tree handed to another searcher: the choices that lead to its top, and
  /// the options at the top it is to try.
  struct Subtree: Sendable {
    fileprivate var path: [Branch]
    fileprivate var readyJobs: [ReadyJob]
    fileprivate var sharings: [ShardedOptions]
    fileprivate var shard: Shard?
  }

  private let preemptionBound: Int?
  private let exactPreemptions: Bool
  private let shard: Shard?
  /// In a sharded search, its shard, counting from 0, and how many shards there are.
  private let sharing: (index: Int, count: Int)?
  private var path: [Branch] = []
  /// The ready jobs of the branches of the path that the branch before did not have, one branch
  /// after another. One array that grows and shrinks at its end with the path, rather than an
  /// array a branch: that would share the scheduler's list of ready jobs, which would then copy it
  /// at its next step, and every copy of a branch would count a reference (together about 1% of a
  /// one-thread exploration of 3 × 3). A branch keeps only the jobs that became ready since the
  /// one before, so a path of many steps with thousands of jobs ready at each stays as long as
  /// its steps, not its steps times its jobs.
  private var readyJobs: [ReadyJob] = []
  /// The ready jobs of the branch at ``listedStep``, rebuilt step by step from the branches'.
  /// `listedStep` is -1 before a run's first step, -2 where the list is not kept (the scheduler
  /// told each step what it kept, so no step needed it), and -3 while it holds the jobs the step
  /// under way kept from the one before.
  private var listed: [ReadyJob] = []
  private var listedStep = -1
  /// In a sharded search, how the slots of the tree share the options of the branches of the path
  /// that more than one slot shares, which are the first ones (see ``ShardedOptions``). Kept apart
  /// from the path so that its branches, copied at every step of every run, stay small.
  private var sharings: [ShardedOptions] = []
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
    sharing = shard.flatMap { $0.count > 1 ? ($0.index - 1, $0.count) : nil }
  }

  /// A search of `subtree` alone, which another search split off.
  init(subtree: Subtree) {
    self.init(shard: subtree.shard)
    path = subtree.path
    readyJobs = subtree.readyJobs
    sharings = subtree.sharings
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
      prefix[depth].tryOption(path[depth].end, sharing: sharing(at: depth))
      prefix[depth].end = path[depth].end + given
      let ready = Array(readyJobs[..<ownJobs(of: path[depth]).endIndex])
      return Subtree(path: prefix, readyJobs: ready, sharings: Array(sharings.prefix(depth + 1)), shard: shard)
    }
    return nil
  }

  /// How the slots share the options of the branch at `depth`, if more than one shares it.
  private func sharing(at depth: Int) -> ShardedOptions? {
    depth < sharings.count ? sharings[depth] : nil
  }

  var exhaustedSchedules: Bool { finished }
  var preemptionsSoFar: Int? { preemptions.count }

  mutating func beginRun() -> Bool {
    preemptions = PreemptionTracker()
    listed.removeAll(keepingCapacity: true)
    listedStep = -1
    guard started else {
      started = true
      return true
    }
    // Backtrack to the deepest branch with an option left.
    while let last = path.last {
      if last.current + 1 < last.end {
        path[path.count - 1].tryOption(last.current + 1, sharing: sharing(at: path.count - 1))
        return true
      }
      readyJobs.removeSubrange(last.readyStart...)
      path.removeLast()
      if sharings.count > path.count { sharings.removeLast() }
    }
    finished = true
    return false
  }

  mutating func nextJob(among ready: [ReadyJob], step: Int) throws -> Int {
    try nextJob(among: ready, step: step, kept: nil)
  }

  /// ``nextJob(among:step:)``, told by the scheduler, where it knows, that the first `kept` of
  /// `ready` are the jobs offered at the step before, less the one taken there
  /// (``StrategyReference/nextJob``): the search then stores and compares only the jobs that
  /// became ready since, so a step costs what those cost, not what every ready job does.
  ///
  /// ``listed`` then goes unkept (``listedStep`` -2), and is rebuilt only where a step needs it:
  /// one the scheduler says nothing of, whose jobs are then stored whole, or a replay that no
  /// longer matches.
  mutating func nextJob(among ready: [ReadyJob], step: Int, kept: Int?) throws -> Int {
    let kept = kept.map { min($0, ready.count) }
    let position: Int
    if step < path.count {
      // The same choices so far must lead to the same ready jobs, or the program is not
      // deterministic and the search would miss or repeat schedules.
      let branch = path[step]
      let own = ownJobs(of: branch)
      if branch.preemptionsBefore == preemptions.count, branch.readyCount == ready.count,
        (kept == branch.kept && own.elementsEqual(ready[branch.kept...])) || (branch.kept == 0 && own.elementsEqual(ready))
      {
        list(ready, kept: branch.kept, atStep: step)
      } else {
        listJobsKept(atStep: step)
        guard branch.preemptionsBefore == preemptions.count, readyJobs(of: branch, own: own, are: ready) else {
          let before = Array(listed.prefix(branch.kept) + own)
          let expected = ScheduleChoice(picking: before[branch.chosen], at: branch.chosen)
          throw ReplayDivergence(step: step, expected: expected, ready: ready, readyBefore: before)
        }
        listed.removeSubrange(branch.kept...)
        listed.append(contentsOf: own)
        listedStep = step
      }
      position = branch.chosen
    } else {
      let kept = kept ?? keptOfListed(atStep: step, ready: ready)
      list(ready, kept: kept, atStep: step)
      let branch = newBranch(ready, kept: kept)
      path.append(branch)
      position = branch.chosen
    }
    preemptions.record(choosing: position, among: ready)
    return position
  }

  /// Keeps ``listed`` as the jobs of `step`, `ready`, of which the first `kept` lead the list of
  /// the step before: where it lists those (``keptOfListed(atStep:ready:)``), or where none are
  /// kept; otherwise it goes unkept.
  private mutating func list(_ ready: [ReadyJob], kept: Int, atStep step: Int) {
    if kept == 0 {
      listed.removeAll(keepingCapacity: true)
      listed.append(contentsOf: ready)
    } else if listedStep == -3 {
      listed.removeSubrange(kept...)
      listed.append(contentsOf: ready[kept...])
    } else {
      listedStep = -2
      return
    }
    listedStep = step
  }

  /// For a step the scheduler said nothing of: how many of the jobs of the step before, less the
  /// one taken there, lead `ready`, where ``listed`` lists that step's; otherwise none, which
  /// stores the step's jobs whole. Leaves ``listed`` as the jobs kept (``listedStep`` -3).
  private mutating func keptOfListed(atStep step: Int, ready: [ReadyJob]) -> Int {
    guard listedStep == step - 1 else { return 0 }
    listJobsKept(atStep: step)
    listedStep = -3
    var kept = 0
    while kept < min(listed.count, ready.count), listed[kept] == ready[kept] { kept += 1 }
    return kept
  }

  /// Whether `ready` are the ready jobs `branch` was made over: those it kept of ``listed``, then
  /// `own`.
  private func readyJobs(of branch: Branch, own: ArraySlice<ReadyJob>, are ready: [ReadyJob]) -> Bool {
    guard branch.readyCount == ready.count, listed.count >= branch.kept else { return false }
    for index in 0..<branch.kept where listed[index] != ready[index] { return false }
    return own.elementsEqual(ready[branch.kept...])
  }

  /// Lists in ``listed`` the jobs the branch at `step` may keep: those of the branch before it,
  /// less the job picked there; none at the first step.
  private mutating func listJobsKept(atStep step: Int) {
    if listedStep != step - 1 {
      // Rebuilt from the first branch where the steps were not followed one by one.
      listed.removeAll(keepingCapacity: true)
      for earlier in 0..<step {
        if earlier > 0 { listed.remove(at: path[earlier - 1].chosen) }
        listed.removeSubrange(path[earlier].kept...)
        listed.append(contentsOf: ownJobs(of: path[earlier]))
      }
    }
    if step > 0 { listed.remove(at: path[step - 1].chosen) }
    // Neither this step's list nor the one before until the caller lists this step's.
    listedStep = -2
  }

  /// The ready jobs of `branch` that the branch before it did not have.
  private func ownJobs(of branch: Branch) -> ArraySlice<ReadyJob> {
    readyJobs[branch.readyStart..<branch.readyStart + branch.readyCount - branch.kept]
  }

  /// A branch over `ready`, whose options are the positions worth trying, the non-preempting one
  /// first in a bounded search, and in a sharded one only those its shard has a share in.
  private mutating func newBranch(_ ready: [ReadyJob], kept: Int) -> Branch {
    var first: Int?
    var end = ready.count
    if let bound = preemptionBound, let continuing = preemptions.continuing(among: ready) {
      first = continuing
      if preemptions.count >= bound { end = 1 }
    }
    // The jobs that became ready since the step before, stored.
    let readyStart = readyJobs.count
    readyJobs.append(contentsOf: ready[kept...])
    guard let sharing, let slots = slotsSharingPath else {
      return Branch(
        readyStart: readyStart, readyCount: ready.count, kept: kept, preemptionsBefore: preemptions.count, first: first, end: end, sharing: nil)
    }
    let options = ShardedOptions(group: slots, shard: sharing, options: end)
    sharings.append(options)
    return Branch(
      readyStart: readyStart, readyCount: ready.count, kept: kept, preemptionsBefore: preemptions.count, first: first, end: options.count,
      sharing: options)
  }

  /// In a sharded search, the slots of the tree (see ``ShardedOptions``) whose schedules pass
  /// through the current path, if that is more than one.
  private var slotsSharingPath: Range<Int>? {
    guard let sharing else { return nil }
    guard !path.isEmpty else { return ShardedOptions.allSlots(shards: sharing.count) }
    guard sharings.count == path.count, let below = sharings.last?.group(below: path[path.count - 1].current), below.count > 1
    else { return nil }
    return below
  }

  /// Whether the run just made is counted elsewhere: in exact mode, a schedule with fewer
  /// preemptions than the bound, tried under a smaller bound; in a sharded search, a schedule
  /// that ended while several slots shared it, which the shard of the first of them counts.
  var countedElsewhere: Bool {
    if exactPreemptions, let preemptionBound, preemptions.count < preemptionBound { return true }
    guard let sharing, let slots = slotsSharingPath else { return false }
    return !ShardedOptions.slot(slots.lowerBound, isOf: sharing)
  }
}
