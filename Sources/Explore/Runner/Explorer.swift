import EffectScheduler

/// Runs the schedules of one exploration, one after another on the calling thread (or, for an
/// exhaustive search with several searchers, on threads of its own too), and stops at the first
/// that fails.
final class Explorer {
  typealias Body = @Sendable () async throws -> Void

  let body: Body
  /// The configuration, whose scheduler's may change on the way: a replay runs at its schedule's
  /// granularity, and the default portfolio's refinement pauses between critical sections.
  var configuration: ExploreConfiguration
  let location: String
  var progress: ProgressReporter
  /// How many schedules the exploration has run so far.
  var runs = 0
  /// What the default portfolio's parts did, for the summary; empty for other strategies.
  var portfolioParts: [PortfolioPartSummary] = []
  /// The limit of the portfolio's budget that ended the search, if one did.
  var portfolioBudgetRanOut: PortfolioBudget.Limit?
  /// For a preemption-bounded search that tried every schedule within its bound, the bound.
  var preemptionBoundCovered: Int?
  /// For a reduced search, how it checked what it took as independent unseen.
  var reductionCheck: ReductionCheck?
  var traceFingerprints: Set<UInt64> = []
  /// The first thing a run met that no schedule can show (``ExplorationSummary/unexplored``).
  var unexplored: String?
  /// Where the determinism check stands (see Explorer+Determinism.swift).
  var determinism = DeterminismCheck.notStarted
  /// What the runs' verdicts rest on (``ExplorationClaim/assumptions``): the determinism check's
  /// runs and those counted note it.
  var assumptions: Set<ExplorationAssumption> = []
  /// Whether instrumented code told any run counted of its operations.
  var sawInstrumentedCode = false
  var runner = SequentialRunner()
  /// A check of each run that passed, made on this thread once the run has ended: the error it
  /// returns fails the run. The linearizability check judges the history its body recorded so.
  var judge: ((RunOutcome<Void>) -> (any Error)?)?

  init(body: @escaping Body, configuration: ExploreConfiguration, location: String) {
    self.body = body
    self.configuration = configuration
    self.location = location
    progress = ProgressReporter(label: location, interval: configuration.progressInterval)
  }

  /// The shard whose share of the schedules the exploration runs, if any.
  var shard: Shard? { configuration.shard }

  /// Explores with `strategy`; returns the summary, or the failure report.
  func explore(_ strategy: ExplorationStrategy) -> Result<ExplorationSummary, ExplorationFailure> {
    let exhausted: Bool
    do {
      exhausted = try run(strategy)
      // A claim of every schedule rests on runs the program repeats; a sample's does not.
      if exhausted { try finishDeterminismCheck() } else { dropDeterminismCheck() }
    } catch {
      var failure = error
      failure.shard = shard
      listQueuedActorWork(in: &failure)
      return .failure(failure)
    }
    var summary = ExplorationSummary(
      strategy: strategy.description(sharedBy: shard), schedules: runs, distinctTraces: traceFingerprints.count,
      claim: ExplorationClaim(coversEverySchedule: exhausted && unexplored == nil, assumptions: claimedAssumptions),
      duration: .nanoseconds(progress.elapsed), portfolioParts: portfolioParts, budgetRanOut: portfolioBudgetRanOut,
      everyScheduleWithPreemptions: preemptionBoundCovered, shard: shard, reductionCheck: reductionCheck, unexplored: unexplored)
    summary.mechanismsOff = RuntimeCapabilities.current.leaving(off: configuration.scheduler.mechanismsLeftOff).off
    summary.instrumented = sawInstrumentedCode
    progress.finished(summary)
    return .success(summary)
  }

  /// What the exploration's claim rests on: its runs' assumptions, and a reduced search's own.
  private var claimedAssumptions: Set<ExplorationAssumption> {
    let process = ExplorationAssumption.madeEverywhere(with: .current)
    return (reductionCheck?.restsOnNoUnseenSharing == true ? assumptions.union([.noUnseenSharing]) : assumptions).union(process)
  }

  /// Runs `strategy`; returns whether it tried every schedule there is.
  private func run(_ strategy: ExplorationStrategy) throws(ExplorationFailure) -> Bool {
    switch strategy.kind {
    case .exhaustive(let maxSchedules):
      checkDeterminism()
      if configuration.searchers > 1 {
        do throws(ExplorationFailure) {
          return try searchInParallel([DepthFirstSearch(shard: shard)], named: strategy, limit: maxSchedules)
        } catch {
          throw minimized(error)
        }
      }
      return try runSearch(DepthFirstSearch(shard: shard), named: strategy, limit: maxSchedules)
    case .reduced(let maxSchedules):
      checkDeterminism()
      if configuration.searchers > 1 {
        do throws(ExplorationFailure) {
          return try searchInParallel(reducedSearchers, named: strategy, limit: maxSchedules)
        } catch {
          throw minimized(error)
        }
      }
      return try runSearch(
        ReducedDepthFirstSearch(shard: shard, assumesNoUnseenSharing: configuration.assumesNoUnseenSharing), named: strategy, limit: maxSchedules)
    case .preemptionBounded(let maxPreemptions, let maxSchedules):
      checkDeterminism()
      // Bound by bound, as iterative context bounding does: the schedules with no preemption,
      // then those with exactly one, and so on up to the bound, each tried once and none beyond
      // it. A bug is met among the schedules with the fewest preemptions it needs, before the
      // many with more (five philosophers deadlock with one preemption, and a search of every
      // schedule with up to two, depth first, meets that one only after hundreds of thousands).
      // The failure is still minimized. The search is bounded, so it never covers everything.
      // A bound under which no schedule has exactly that many has none with more either (a
      // schedule with more has a prefix with that many, which goes on without preempting): the
      // bounds above it add nothing.
      let first = runs
      for bound in 0...maxPreemptions {
        let left = maxSchedules.map { max(0, $0 - (runs - first)) }
        guard left != 0 else { return false }
        let before = runs
        let search = DepthFirstSearch(preemptionBound: bound, exactPreemptions: bound > 0, shard: shard)
        guard try runSearch(search, named: strategy, limit: left) else { return false }
        if bound > 0, runs == before, shard == nil { break }
      }
      preemptionBoundCovered = maxPreemptions
      return false
    case .random(let schedules, let seed):
      return try runSearch(RandomSearch(schedules: schedules, seed: seed, shard: shard), named: strategy, limit: nil)
    case .pct(let depth, let schedules, let seed):
      let probe = probe(depth: depth, schedules: schedules, strategy: strategy)
      let search = PCTSearch(depth: depth, schedules: schedules, expectedSteps: probe.steps, seed: seed, shard: shard)
      let exhausted = try runSearch(search, named: strategy, limit: nil)
      // A bug the probe hit but no PCT run did is still a bug.
      if let failure = probe.failure { throw minimized(failure) }
      return exhausted
    case .replay(let text):
      let schedule: Schedule
      do {
        schedule = try Schedule(parsing: text)
      } catch {
        throw ExplorationFailure(summary: "the replay string is not a schedule: \(error.problem)", location: location, strategy: strategy.description)
      }
      configuration.scheduler = configuration.scheduler.replaying(schedule)
      return try runSearch(ReplaySearch(schedule), named: strategy, limit: nil)
    case .sequence(let strategies):
      for strategy in strategies where try run(strategy) { return true }
      return false
    case .portfolio:
      return try runPortfolio(named: strategy)
    }
  }

  /// Runs the search's schedules until it has no more, `limit` runs have been made, or one fails,
  /// and reports that failure with the fewest preemptions it can find. Returns whether the search
  /// tried every schedule there is.
  private func runSearch(_ search: some ExplorationSearch, named strategy: ExplorationStrategy, limit: Int?) throws(ExplorationFailure) -> Bool {
    do throws(ExplorationFailure) {
      // A search that counts its runs' preemptions itself is searched as it is.
      if search.preemptionsSoFar != nil {
        var counting = search
        return try searchCounting(&counting, named: strategy, limit: limit)
      }
      var counting = PreemptionCounting(search)
      return try searchCounting(&counting, named: strategy, limit: limit)
    } catch {
      throw minimized(error)
    }
  }

  /// How many runs a search with a limit may make for each schedule of its limit, those that
  /// another part counts among them.
  static let runsPerCountedSchedule = 10

  /// Runs the schedules of `search`, which counts its runs' preemptions, until it has no more,
  /// `limit` runs have been counted (or ``runsPerCountedSchedule`` times as many made),
  /// `deadline` has passed, or one fails; throws that failure as found, for the caller to
  /// minimize. Returns whether the search tried every schedule there is.
  /// With `firstRunRegardless`, the first run is made even if the deadline has passed; with
  /// `onlyWhileClaimable`, the search stops once the search can no longer claim every schedule
  /// (``ExplorationSearch/canStillClaimEverySchedule``).
  func searchCounting(
    _ search: inout some ExplorationSearch, named strategy: ExplorationStrategy, limit: Int?, until deadline: Deadline? = nil,
    firstRunRegardless: Bool = false, onlyWhileClaimable: Bool = false
  ) throws(ExplorationFailure) -> Bool {
    // One reference to the search serves every run of the search.
    try withUnsafeMutablePointer(to: &search) { counting throws(ExplorationFailure) in
      var reference = StrategyReference(search: counting)
      let first = reference.watchingLocks()
      var made = 0
      // Runs another part counts (`countedElsewhere`) take time too: a bounded part whose runs
      // all have fewer preemptions than its bound, as in a program whose tasks never preempt one
      // another, would otherwise never reach its limit.
      var ran = 0
      while limit.map({ made < $0 && ran / Self.runsPerCountedSchedule < $0 }) ?? true,
        (firstRunRegardless && made == 0) || !(deadline?.hasPassed ?? false),
        !onlyWhileClaimable || counting.pointee.canStillClaimEverySchedule, counting.pointee.beginRun()
      {
        // A search that goes on past the run the determinism check kept replays it first.
        if case .replaying = determinism { try finishDeterminismCheck() }
        // A reduced search that became a search of every schedule watches its runs no more.
        if reference.watchesHiddenAccesses != counting.pointee.learnsFromTraces { reference = StrategyReference(search: counting) }
        let outcome = runOnce(ran == 0 ? first : reference, explores: false)
        noteDeterminismRun(outcome)
        ran += 1
        if counting.pointee.learnsFromTraces { counting.pointee.runDidEnd(trace: outcome.trace) }
        if !counting.pointee.countedElsewhere {
          made += 1
          count(outcome)
        }
        if let failure = failure(of: outcome, seed: counting.pointee.seed, preemptions: counting.pointee.preemptionsSoFar ?? 0, strategy: strategy) {
          throw counting.pointee.learnsFromTraces ? withReplayTrace(failure) : failure
        }
      }
      if let check = counting.pointee.reductionCheck { reductionCheck = check }
      return counting.pointee.exhaustedSchedules
    }
  }

  /// How many shares of a reduced search each searcher has, on average: enough for one that
  /// finishes early to take another's, few enough that the shards' shared choice points, where
  /// the search is not reduced, stay near the top of the tree.
  static let reducedSharesPerSearcher = 2

  /// Runs one schedule. Runs that explore count toward the summary; the determinism check,
  /// PCT's probe and schedules a bounded search repeats do not. With `watchesLocks`, the run notes
  /// the locks its steps take (`StrategyReference.watchesLocks`).
  func runOnce(_ strategy: inout some SchedulingStrategy, explores: Bool = true, watchesLocks: Bool = false) -> RunOutcome<Void> {
    withUnsafeMutablePointer(to: &strategy) { strategy in
      var reference = StrategyReference(strategy)
      reference.watchesLocks = watchesLocks
      return runOnce(reference, explores: explores)
    }
  }

  private func runOnce(_ strategy: StrategyReference, explores: Bool) -> RunOutcome<Void> {
    let outcome = runner.run(strategy: strategy, configuration: configuration.scheduler, operation: body)
    if explores { count(outcome) }
    return outcome
  }

  private func count(_ outcome: RunOutcome<Void>) {
    runs += 1
    traceFingerprints.insert(outcome.record.traceFingerprint)
    unexplored = unexplored ?? outcome.record.trail.unexplored
    assumptions.formUnion(outcome.assumptions)
    sawInstrumentedCode = sawInstrumentedCode || outcome.record.trail.instrumented
    progress.ranSchedule(runs)
  }

  /// Runs the first-in-first-out schedule to learn how many steps a run takes, for PCT's change
  /// points; returns its failure too, reported only if no PCT run fails. That report says the
  /// failure came from this run: it has no PCT schedule number or seed, and none would replay it.
  func probe(depth: Int, schedules: Int, strategy: ExplorationStrategy) -> (steps: Int, failure: ExplorationFailure?) {
    var fifo = PreemptionCounting(FIFOStrategy())
    let probe = runOnce(&fifo, explores: false)
    var failure = failure(of: probe, seed: nil, preemptions: fifo.preemptions, strategy: strategy)
    failure?.strategy = "PCT depth \(depth) (\(schedules) schedules, none failed), found by the first-in-first-out run before any PCT run"
    failure?.scheduleNumber = nil
    return (probe.record.steps, failure)
  }
}
