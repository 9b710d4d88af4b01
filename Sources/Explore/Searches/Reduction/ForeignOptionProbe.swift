import EffectScheduler

/// In a sharded reduced search, a run that learns what the step of an option of a shared choice
/// point touches when another shard explores that option.
///
/// A choice point that several shards' slots share tries every option, each in the shard that
/// owns it (see ``ReducedDepthFirstSearch``). One search trying them all in order would let each
/// option explored sleep in the options after it, for as long as they take steps independent of
/// it. So that the shards prune as that search does, a shard learns the step of each option of
/// another shard's that comes before one of its own, by one run: the path to the choice point,
/// that option, then the first ready job at every step. The option is not this shard's to count,
/// but the run is a real one, judged like any other.
struct ForeignOptionProbe {
  /// The depth of the choice point on the path, and the option whose step the run learns.
  let depth: Int
  let option: Int
  /// The choices to the choice point and at it: the ready jobs, and the position to take.
  private let prefix: [(ready: [ReadyJob], chosen: Int)]
  /// The run's ready jobs and choices so far.
  private var ready = ReadyLists()
  private var chosen: [Int] = []

  /// A probe of `option` at the choice point at `depth` of `path`, whose ready jobs and choice at
  /// each step are given.
  init(option: Int, atDepth depth: Int, of path: [(ready: [ReadyJob], chosen: Int)]) {
    self.depth = depth
    self.option = option
    var prefix = Array(path[...depth])
    prefix[depth].chosen = option
    self.prefix = prefix
  }

  /// The position to take at `step`: the prefix's, then the first ready job.
  mutating func nextJob(among ready: [ReadyJob], step: Int) throws -> Int {
    var position = 0
    if step < prefix.count {
      try ReplayDivergence.check(ready, areAsBefore: prefix[step].ready, whichTook: prefix[step].chosen, atStep: step)
      position = prefix[step].chosen
    }
    self.ready.append(ready)
    chosen.append(position)
    return position
  }

  /// What the option's step touched, read from the run's `trace`; `nil` when the run did not get
  /// there or the model cannot follow it. `finished` says whether the run finished, and
  /// `assumesNoUnseenSharing` whether the search assumes no unseen sharing (see ``StepAccesses``).
  func footprint(trace: Trace, finished: Bool, assumesNoUnseenSharing: Bool) -> StepFootprint? {
    guard ready.count > depth,
      let accesses = StepAccesses(
        ready: ready, chosen: chosen, trace: trace, leftWaiting: !finished && trace.cutAtStep == nil, assumesNoUnseenSharing: assumesNoUnseenSharing)
    else { return nil }
    return accesses.footprint(ofStep: depth, job: ready[depth, option])
  }
}
