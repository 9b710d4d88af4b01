import EffectScheduler

/// Searches on several threads at once: an exhaustive search split among its searchers, and a
/// reduced search whose choice points they share.
extension Explorer {
  /// Runs the searches `given` on ``ExploreConfiguration/searchers`` threads at once, each taking
  /// the next not taken (or else work another hands over), up to `limit` schedules and until
  /// `deadline`; returns whether it tried every schedule there is (for reduced searches, whether
  /// they also justified what they took as independent), or throws the failure it found, as found.
  func searchInParallel<Search: SplittableSearch>(
    _ given: [Search], named strategy: ExplorationStrategy, limit: Int?, until deadline: Deadline? = nil
  ) throws(ExplorationFailure) -> Bool {
    try searchInParallelReporting(given, named: strategy, limit: limit, until: deadline).triedAll
  }

  /// ``searchInParallel(_:named:limit:until:)``, which also returns whether the searches ran to
  /// their end or, with `onlyWhileClaimable`, stopped once one could no longer claim every
  /// schedule.
  func searchInParallelReporting<Search: SplittableSearch>(
    _ given: [Search], named strategy: ExplorationStrategy, limit: Int?, until deadline: Deadline? = nil,
    onlyWhileClaimable: Bool = false
  ) throws(ExplorationFailure) -> (triedAll: Bool, finished: Bool) {
    // The searchers' runs are made on threads of their own: the check is finished here.
    try finishDeterminismCheck()
    let search = ParallelSearch<Search>(
      searchers: configuration.searchers, limit: limit, deadline: deadline, body: body,
      scheduler: configuration.scheduler, location: location, strategy: strategy, onlyWhileClaimable: onlyWhileClaimable)
    let outcome = search.run(given) { progress.ranSchedule($0) }
    runs += search.schedulesRun
    traceFingerprints.formUnion(outcome.traceFingerprints)
    unexplored = unexplored ?? outcome.unexplored
    assumptions.formUnion(outcome.assumptions)
    sawInstrumentedCode = sawInstrumentedCode || outcome.instrumented
    let check = outcome.reductionCheck
    if let check { reductionCheck = check }
    switch outcome.ending {
    case .exhausted: return (check?.justified ?? true, true)
    case .limited: return (false, false)
    case .unclaimable: return (false, true)
    case .failed(let failure): throw given.first?.learnsFromTraces == true ? withReplayTrace(failure) : failure
    }
  }

  /// A reduced search for the searchers: one search whose choice points they share
  /// (``SharedReducedTree``), one searcher each; or, in a shard of a search split among processes
  /// (``Shard``), the shard's shares, ``reducedSharesPerSearcher`` a searcher, which the first
  /// searcher free takes: with `k` shares in all, shard `i` of `n` is split into shards
  /// `(i - 1)k + 1` to `ik` of `nk`, so that the processes' searchers together run every shard once.
  var reducedSearchers: [PreemptionCounting<ReducedDepthFirstSearch>] {
    guard let shard, shard.count > 1 else {
      let tree = SharedReducedTree()
      return (0..<configuration.searchers).map { _ in
        PreemptionCounting(ReducedDepthFirstSearch(sharing: tree, assumesNoUnseenSharing: configuration.assumesNoUnseenSharing))
      }
    }
    let shares = configuration.searchers * Self.reducedSharesPerSearcher
    let (index, count) = (shard.index, shard.count)
    return (1...shares).map { share in
      PreemptionCounting(
        ReducedDepthFirstSearch(
          shard: Shard(index: (index - 1) * shares + share, count: count * shares), assumesNoUnseenSharing: configuration.assumesNoUnseenSharing))
    }
  }
}
