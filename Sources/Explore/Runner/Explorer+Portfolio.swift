import Dispatch
import EffectScheduler

extension Explorer {
  /// Runs the default portfolio within ``ExploreConfiguration/portfolioBudget``, shared among its
  /// parts as ``PortfolioPlan`` says, and records in ``portfolioParts`` and
  /// ``portfolioBudgetRanOut`` how far it got. Returns whether its reduced part tried every class
  /// and justified it, or its exhaustive part tried every schedule there is; throws the first
  /// failure, named after the part that found it, with the fewest preemptions the minimization
  /// finds.
  func runPortfolio(named strategy: ExplorationStrategy) throws(ExplorationFailure) -> Bool {
    // The search's first run is the determinism check's, and is made whatever the budget
    // (`firstRunRegardless`): a program whose runs wait out a stall must not pass with none tried.
    checkDeterminism()
    let start = DispatchTime.now().uptimeNanoseconds
    let firstRun = runs
    let settled = try runPortfolioParts(PortfolioPlan(budget: configuration.portfolioBudget), named: strategy, firstRunRegardless: true)
    guard settled, refinesCriticalSections else { return settled }
    return try refineCriticalSections(named: strategy, start: start, schedulesUsed: runs - firstRun)
  }

  /// Whether the default portfolio, having settled the schedules whose critical sections run
  /// whole, goes on to pause between them: its claim rests on their running whole, and the
  /// configuration does not pause at such locks already. (Where no step takes them twice, the
  /// refined search runs the same schedules again, and its claim no longer rests on that.)
  private var refinesCriticalSections: Bool {
    assumptions.contains(.uncontrolledLocksRanWhole)
      && !configuration.scheduler.pausesBetweenCriticalSections && !configuration.scheduler.pausesAtUncontrolledLocks
  }

  /// Runs the portfolio again, in what is left of its budget, pausing between the critical
  /// sections of each step on locks the scheduler does not control
  /// (`SchedulerConfiguration.pausesBetweenCriticalSections`): a check in one section and an act
  /// in the next, which another task may come between on real threads. The schedules where the
  /// sections ran whole are settled already, so the claim of every schedule given that they did
  /// stands; if the refined search settles too, the claim no longer rests on it. Returns `true`.
  private func refineCriticalSections(named strategy: ExplorationStrategy, start: UInt64, schedulesUsed: Int) throws(ExplorationFailure) -> Bool {
    let budget = configuration.portfolioBudget
    let elapsed = Duration.nanoseconds(DispatchTime.now().uptimeNanoseconds - start)
    let left = PortfolioBudget(time: budget.time.map { max(.zero, $0 - elapsed) }, schedules: max(0, budget.schedules - schedulesUsed))
    guard left.schedules > 0, left.time.map({ $0 > .zero }) ?? true else { return true }
    let whole = (assumptions: assumptions, reductionCheck: reductionCheck)
    assumptions = []
    reductionCheck = nil
    configuration.scheduler.pausesBetweenCriticalSections = true
    let parts = portfolioParts.count
    let settled: Bool
    do throws(ExplorationFailure) {
      settled = try runPortfolioParts(PortfolioPlan(budget: left), named: strategy, firstRunRegardless: false)
    } catch {
      var failure = error
      failure.strategy += ", pausing between critical sections once the schedules that ran them whole had passed"
      throw failure
    }
    for index in parts..<portfolioParts.count { portfolioParts[index].splitsCriticalSections = true }
    if !settled {
      // The claim is the first pass's; the refined one sampled.
      assumptions.formUnion(whole.assumptions)
      reductionCheck = whole.reductionCheck
      portfolioBudgetRanOut = nil
    }
    return true
  }

  /// Runs the parts of the default portfolio within `plan`'s budget; returns whether the reduced
  /// or the exhaustive part tried every schedule. With `firstRunRegardless`, its first part makes
  /// a run even if the budget has no time left.
  private func runPortfolioParts(_ plan: PortfolioPlan, named strategy: ExplorationStrategy, firstRunRegardless: Bool) throws(ExplorationFailure) -> Bool {
    let start = DispatchTime.now().uptimeNanoseconds
    let end = plan.timeEnd.map { Deadline(nanoseconds: $0, after: start) }
    let firstRun = runs
    // Schedules left in the whole budget, and which of its limits has been reached, if any.
    let left = { plan.budget.schedules - (self.runs - firstRun) }
    let budgetEnding = { () -> PortfolioBudget.Limit? in
      if left() <= 0 { return .schedules(plan.budget.schedules) }
      if self.runs > firstRun, let end, end.hasPassed, let time = plan.budget.time { return .time(time) }
      return nil
    }

    var boundsStart: UInt64 = 0
    var proved = 0
    for (index, part) in PortfolioPlan.systematicParts.enumerated() {
      // The exhaustive search runs only where the reduced one could not justify its claim.
      if part == .exhaustive, portfolioParts.last?.ending != .unjustified { continue }
      if let limit = budgetEnding() {
        portfolioBudgetRanOut = limit
        return false
      }
      if index == PortfolioPlan.provingParts { boundsStart = DispatchTime.now().uptimeNanoseconds - start }
      let shareEnd = plan.timeShareEnd(ofSystematicPart: index, boundsStart: boundsStart).map {
        Deadline(nanoseconds: $0, after: start)
      }
      let before = runs
      let cap = plan.schedulesCap(ofSystematicPart: index, schedulesBefore: proved)
      let ending = try runSystematicPart(
        part, named: strategy, limit: min(cap, left()), until: shareEnd, firstRunRegardless: firstRunRegardless && runs == firstRun)
      let summary = PortfolioPartSummary(part: part, schedules: runs - before, ending: ending ?? (budgetEnding() != nil ? .budgetRanOut : .usedItsShare))
      portfolioParts.append(summary)
      if index < PortfolioPlan.provingParts { proved += summary.schedules }
      if ending == .triedEverySchedule, part == .reduced || part == .exhaustive {
        // What the reduced part could not justify, the exhaustive part has settled.
        if part == .exhaustive { reductionCheck = nil }
        return true
      }
    }
    if let limit = budgetEnding() {
      portfolioBudgetRanOut = limit
      return false
    }

    try runSampling(named: strategy, limit: left(), until: end)
    portfolioBudgetRanOut = budgetEnding() ?? .schedules(plan.budget.schedules)
    return false
  }

  /// Runs the reduced or the exhaustive search, or the schedules with exactly the preemptions of
  /// a preemption bound; returns `.triedEverySchedule` when it tried every schedule it covers,
  /// `.unjustified` when the reduced search stopped because it could not justify a claim, and
  /// `nil` when it stopped short.
  private func runSystematicPart(
    _ part: PortfolioPart, named strategy: ExplorationStrategy, limit: Int, until deadline: Deadline?, firstRunRegardless: Bool
  ) throws(ExplorationFailure) -> PortfolioPartSummary.Ending? {
    do throws(ExplorationFailure) {
      switch part {
      case .reduced:
        // It stops as soon as it cannot claim every schedule: the exhaustive part then gets what
        // is left of its share.
        let triedAll: Bool
        let finished: Bool
        if configuration.searchers > 1 {
          (triedAll, finished) = try searchInParallelReporting(
            reducedSearchers, named: strategy, limit: limit, until: deadline, onlyWhileClaimable: true)
        } else {
          var search = PreemptionCounting(ReducedDepthFirstSearch(shard: shard, assumesNoUnseenSharing: configuration.assumesNoUnseenSharing))
          triedAll = try searchCounting(
            &search, named: strategy, limit: limit, until: deadline, firstRunRegardless: firstRunRegardless, onlyWhileClaimable: true)
          finished = search.base.searchedEveryClass || !search.canStillClaimEverySchedule
        }
        return triedAll ? .triedEverySchedule : finished ? .unjustified : nil
      case .exhaustive where configuration.searchers > 1:
        return try searchInParallel([DepthFirstSearch(shard: shard)], named: strategy, limit: limit, until: deadline) ? .triedEverySchedule : nil
      default:
        var bound: Int?
        if case .preemptionBound(let preemptions) = part { bound = preemptions }
        // Under bound n only the schedules with exactly n preemptions count: bound n − 1 ran the others.
        var search = DepthFirstSearch(preemptionBound: bound, exactPreemptions: (bound ?? 0) > 0, shard: shard)
        let triedAll = try searchCounting(&search, named: strategy, limit: limit, until: deadline, firstRunRegardless: firstRunRegardless)
        return triedAll ? .triedEverySchedule : nil
      }
    } catch {
      throw minimized(error.found(by: part))
    }
  }

  /// Runs PCT and random runs in turn until the budget runs out or one fails.
  private func runSampling(named strategy: ExplorationStrategy, limit: Int, until deadline: Deadline?) throws(ExplorationFailure) {
    let depth = PortfolioPlan.pctDepth
    let pct = PortfolioPart.pct(depth: depth)
    // PCT places its change points among the steps of a first-in-first-out run. That run is the
    // reduced part's first, so it fails here only when that part ran no schedule.
    let probe = probe(depth: depth, schedules: limit, strategy: strategy)
    if var failure = probe.failure {
      failure.strategy = "default portfolio, found by the first-in-first-out run before its PCT runs"
      failure.portfolioPart = pct
      throw minimized(failure)
    }
    var search = PreemptionCounting(
      AlternatingSearch(
        PCTSearch(depth: depth, schedules: .max, expectedSteps: probe.steps, seed: ExplorationStrategy.defaultSeed, shard: shard),
        RandomSearch(schedules: .max, seed: ExplorationStrategy.defaultSeed, shard: shard)))
    do throws(ExplorationFailure) {
      _ = try searchCounting(&search, named: strategy, limit: limit, until: deadline)
    } catch {
      throw minimized(error.found(by: search.base.secondsTurn ? .random : pct))
    }
    portfolioParts.append(PortfolioPartSummary(part: pct, schedules: search.base.runs.first, ending: .budgetRanOut))
    portfolioParts.append(PortfolioPartSummary(part: .random, schedules: search.base.runs.second, ending: .budgetRanOut))
  }
}

extension ExplorationFailure {
  /// The failure, named as found by `part` of the default portfolio.
  fileprivate func found(by part: PortfolioPart) -> ExplorationFailure {
    var failure = self
    failure.strategy = "default portfolio, found by its \(part) part"
    failure.portfolioPart = part
    return failure
  }
}
