import EffectScheduler

/// A failing run's report: the failure made from the run, minimized to the fewest preemptions,
/// and its trace replayed so that it shows what a search's run watched differently.
extension Explorer {
  /// The failure of a search that watched what its runs' steps shared, with the trace its
  /// schedule's replay (``ExplorationStrategy/replay(_:)``) gives: such runs place a cancellation
  /// at the step that made it and note the locks steps took, so their traces differ from a
  /// replay's in those details. A replay that does not fail as the search's run did leaves it.
  func withReplayTrace(_ failure: ExplorationFailure) -> ExplorationFailure {
    guard let schedule = failure.schedule else { return failure }
    var search = ReplaySearch(schedule)
    _ = search.beginRun()
    let replayed = withUnsafeMutablePointer(to: &search) { search in
      runner.run(strategy: StrategyReference(search: search), configuration: configuration.scheduler, operation: body)
    }
    guard let again = self.failure(of: replayed, seed: nil, preemptions: 0, strategy: .replay(schedule)), again.summary == failure.summary else {
      return failure
    }
    var reported = failure
    reported.trace = again.trace
    return reported
  }

  /// The report for a failed run, or `nil` when the run passed.
  func failure(of outcome: RunOutcome<Void>, seed: UInt64?, preemptions: Int, strategy: ExplorationStrategy) -> ExplorationFailure? {
    if let failure = ExplorationFailure(
      of: outcome, location: location, strategy: strategy, scheduleNumber: runs, seed: seed, preemptions: preemptions)
    {
      return failure
    }
    guard let judge, outcome.record.time.cutAtStep == nil, let error = judge(outcome) else { return nil }
    return ExplorationFailure(
      summary: String(describing: error), location: location, strategy: strategy.description, scheduleNumber: runs, seed: seed,
      preemptions: (preemptions, preemptions), schedule: outcome.schedule, trace: outcome.trace, underlyingError: error)
  }

  /// Replays the failing schedule once more, reading which tasks each actor's job found queued,
  /// so that the report's trace names every task whose work each actor job ran (searches do not
  /// read it, to keep their runs cheap). A run that ended stuck is left as it is: its replay would
  /// wait on the outside world again.
  func listQueuedActorWork(in failure: inout ExplorationFailure) {
    guard let schedule = failure.schedule, let trace = failure.trace else { return }
    if let stuck = failure.underlyingError as? SchedulerError {
      switch stuck.reason {
      case .deadlock, .stalled: return
      default: break
      }
    }
    var search = ReplaySearch(schedule)
    _ = search.beginRun()
    let replayed = withUnsafeMutablePointer(to: &search) { search in
      var reference = StrategyReference(search: search)
      reference.listsQueuedActorWork = true
      return runner.run(strategy: reference, configuration: configuration.scheduler, operation: body)
    }
    if replayed.trace.events == trace.events { failure.trace = replayed.trace }
  }

  /// Looks, within the minimization budget, for a failing schedule with fewer preemptions than
  /// `failure`'s, trying fewest first; returns the best failure known.
  func minimized(_ failure: ExplorationFailure) -> ExplorationFailure {
    guard let found = failure.preemptions?.found, found > 0, configuration.minimizationBudget > 0 else { return failure }
    var budget = configuration.minimizationBudget
    for bound in 0..<found {
      var search = DepthFirstSearch(preemptionBound: bound, exactPreemptions: bound > 0)
      while budget > 0, search.beginRun() {
        budget -= 1
        let outcome = runOnce(&search)
        let preemptions = search.preemptionsSoFar ?? 0
        if var smaller = self.failure(of: outcome, seed: nil, preemptions: preemptions, strategy: .preemptionBounded(bound)) {
          smaller.strategy = "\(failure.strategy), then a search for fewer preemptions"
          smaller.scheduleNumber = failure.scheduleNumber
          smaller.seed = failure.seed
          smaller.portfolioPart = failure.portfolioPart
          smaller.preemptions = (preemptions, found)
          return smaller
        }
      }
    }
    return failure
  }
}
