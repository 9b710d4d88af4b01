import Dispatch
import EffectScheduler
import Synchronization

/// A search whose work can be handed from one searcher to another.
protocol SplittableSearch: ExplorationSearch, Sendable {
  /// A part of the search handed to another searcher.
  associatedtype Subtree: Sendable
  /// Gives away part of what is left to search, which the search then no longer tries itself;
  /// `nil` when there is nothing to give, or the search cannot be split so. Called between runs.
  mutating func split() -> Subtree?
  /// A search of `subtree` alone.
  init(subtree: Subtree)
  /// Tells the search that its searcher stopped, at its end or before it (at a failure, a limit
  /// or a deadline).
  func searchDidStop()
}

extension SplittableSearch {
  func searchDidStop() {}
}

extension PreemptionCounting: SplittableSearch where Base: SplittableSearch {
  mutating func split() -> Base.Subtree? { base.split() }
  init(subtree: Base.Subtree) { self.init(Base(subtree: subtree)) }
  func searchDidStop() { base.searchDidStop() }
}

/// A search split among threads, each running its own schedules of the body under its own
/// scheduler.
///
/// Each searcher takes the next of the searches it is given, in order, or waits for work. Work moves by splitting:
/// a searcher with nothing left to do waits, and a busy one, seeing that, hands over part of what
/// it has left (for an exhaustive search, half the untried options of its shallowest open branch:
/// ``DepthFirstSearch/split()``). Every schedule is still tried exactly once. A reduced search,
/// which cannot be split so, is given to the searchers as one searcher's part each of one search
/// whose choice points they share (``SharedReducedTree``), or, in a shard of a search split among
/// processes, as shards of its own, a few a searcher, each taken by the first searcher free. The search
/// ends when every searcher waits with nothing handed over, at the first failure, at the schedule
/// limit, or once its deadline has passed.
final class ParallelSearch<Search: SplittableSearch>: Sendable {
  /// What the search found.
  enum Ending {
    case exhausted
    case limited
    /// A search stopped because it could no longer claim every schedule (``onlyWhileClaimable``).
    case unclaimable
    case failed(ExplorationFailure)
  }

  /// What the searchers found together, once all have stopped.
  struct Outcome {
    var ending: Ending
    /// The fingerprints of the traces of the runs the search counted.
    var traceFingerprints: Set<UInt64>
    /// The reduced searches' checks, added together; `nil` where none was reduced.
    var reductionCheck: ReductionCheck?
    /// The first thing a run met that no schedule can show, in words.
    var unexplored: String?
    var assumptions: Set<ExplorationAssumption>
    /// Whether instrumented code of any run told the run of its operations.
    var instrumented: Bool
  }

  struct State {
    /// The searches given at the start that no searcher has taken yet.
    var given: [Search] = []
    var handedOver: [Search.Subtree] = []
    var waiting = 0
    var over = false
    var failure: ExplorationFailure?
    var limited = false
    var unclaimable = false
    var traceFingerprints: Set<UInt64> = []
    /// The first thing a run met that no schedule can show (``ExplorationSummary/unexplored``).
    var unexplored: String?
    /// What the runs' verdicts rest on (``ExplorationClaim/assumptions``).
    var assumptions: Set<ExplorationAssumption> = []
    /// Whether instrumented code told any run of its operations (``ExplorationSummary/instrumented``).
    var instrumented = false
    /// For reduced searches, their checks together.
    var reductionCheck: ReductionCheck?
  }

  let searchers: Int
  let limit: Int?
  let deadline: Deadline?
  private let body: Explorer.Body
  private let scheduler: SchedulerConfiguration
  private let location: String
  private let strategy: ExplorationStrategy
  /// Whether the search stops as soon as one of its searches can no longer claim every schedule
  /// (``ExplorationSearch/canStillClaimEverySchedule``).
  private let onlyWhileClaimable: Bool
  let state: Mutex<State>
  /// How many searchers wait for work, read by busy ones after every run.
  let hungry = Atomic<Int>(0)
  private let stopped = Atomic<Bool>(false)
  let schedules = Atomic<Int>(0)
  let workHandedOver = DispatchSemaphore(value: 0)
  private let searcherFinished = DispatchSemaphore(value: 0)

  init(
    searchers: Int, limit: Int?, deadline: Deadline? = nil, body: @escaping Explorer.Body,
    scheduler: SchedulerConfiguration, location: String, strategy: ExplorationStrategy, onlyWhileClaimable: Bool = false
  ) {
    self.searchers = searchers
    self.limit = limit
    self.deadline = deadline
    self.body = body
    self.scheduler = scheduler
    self.location = location
    self.strategy = strategy
    self.onlyWhileClaimable = onlyWhileClaimable
    state = Mutex(State())
  }

  /// How many schedules have run so far.
  var schedulesRun: Int { schedules.load(ordering: .relaxed) }

  /// Runs `given`, the searches to make, on this thread and `searchers - 1` threads of its own,
  /// each searcher taking the next search not taken, or else waiting for work handed over; returns
  /// when all have stopped, with the reduced searches' checks together. `ranSchedule` is called on
  /// this thread after each of its runs.
  func run(_ given: [Search], ranSchedule: (Int) -> Void) -> Outcome {
    state.withLock { $0.given = given.reversed() }
    for _ in 1..<searchers {
      startOnDedicatedThread {
        self.runSearcher(self.takeWork(), ranSchedule: { _ in })
        self.searcherFinished.signal()
      }
    }
    runSearcher(takeWork(), ranSchedule: ranSchedule)
    for _ in 1..<searchers { searcherFinished.wait() }
    return state.withLock { state in
      let ending: Ending =
        if let failure = state.failure {
          .failed(failure)
        } else if state.unclaimable {
          .unclaimable
        } else if state.limited {
          .limited
        } else {
          .exhausted
        }
      return Outcome(
        ending: ending, traceFingerprints: state.traceFingerprints, reductionCheck: state.reductionCheck, unexplored: state.unexplored,
        assumptions: state.assumptions, instrumented: state.instrumented)
    }
  }

  /// One searcher: searches `first`, then whatever other searchers hand over, until the search is
  /// over.
  private func runSearcher(_ first: Search?, ranSchedule: (Int) -> Void) {
    var runner = SequentialRunner()
    var fingerprints: Set<UInt64> = []
    var unexplored: String?
    var assumptions: Set<ExplorationAssumption> = []
    var instrumented = false
    var uncounted = 0
    defer { schedules.add(uncounted, ordering: .relaxed) }
    // Runs another part or shard counts: with a limit, at most `Explorer.runsPerCountedSchedule`
    // times as many of them as the limit, so that a search whose runs all count elsewhere ends.
    var countedElsewhere = 0
    var next = first
    while var search = next {
      withUnsafeMutablePointer(to: &search) { search in
        let reference = StrategyReference(search: search)
        var nextReference = reference.watchingLocks()
        while !stopped.load(ordering: .relaxed), search.pointee.beginRun() {
          guard let number = claimSchedule(&uncounted) else { return }
          let outcome = runner.run(strategy: nextReference, configuration: scheduler, operation: body)
          nextReference = reference
          assumptions.formUnion(outcome.assumptions)
          instrumented = instrumented || outcome.record.trail.instrumented
          if search.pointee.learnsFromTraces { search.pointee.runDidEnd(trace: outcome.trace) }
          if search.pointee.countedElsewhere {
            unclaimSchedule(&uncounted)
            countedElsewhere += 1
            if let limit, countedElsewhere / Explorer.runsPerCountedSchedule >= limit { stopAtLimit() }
          } else {
            fingerprints.insert(outcome.record.traceFingerprint)
            unexplored = unexplored ?? outcome.record.trail.unexplored
          }
          if let failure = ExplorationFailure(
            of: outcome, location: location, strategy: strategy, scheduleNumber: number, seed: nil,
            preemptions: search.pointee.preemptionsSoFar ?? 0)
          {
            stop(failing: failure)
            return
          }
          ranSchedule(number)
          if onlyWhileClaimable, !search.pointee.canStillClaimEverySchedule {
            stopUnclaimable()
            return
          }
          if hungry.load(ordering: .relaxed) > 0, let subtree = search.pointee.split() { handOver(subtree) }
        }
      }
      search.searchDidStop()
      if let check = search.reductionCheck {
        state.withLock { state in
          if state.reductionCheck == nil { state.reductionCheck = ReductionCheck() }
          state.reductionCheck?.add(check)
        }
      }
      next = takeWork()
    }
    state.withLock { state in
      state.traceFingerprints.formUnion(fingerprints)
      state.unexplored = state.unexplored ?? unexplored
      state.assumptions.formUnion(assumptions)
      state.instrumented = state.instrumented || instrumented
    }
  }

  /// Gives back the number of a schedule that turned out to be another shard's to count.
  private func unclaimSchedule(_ uncounted: inout Int) {
    if limit == nil {
      uncounted -= 1
    } else {
      schedules.subtract(1, ordering: .relaxed)
    }
  }

  /// Ends the search because it reached its schedule limit or its deadline.
  func stopAtLimit() {
    state.withLock { $0.limited = true }
    end()
  }

  /// Ends the search because one of its searches can no longer claim every schedule.
  private func stopUnclaimable() {
    state.withLock { $0.unclaimable = true }
    end()
  }

  private func stop(failing failure: ExplorationFailure) {
    state.withLock { state in
      if state.failure == nil { state.failure = failure }
    }
    end()
  }

  /// Ends the search: busy searchers stop after their run, and waiting ones wake up.
  private func end() {
    stopped.store(true, ordering: .relaxed)
    state.withLock { $0.over = true }
    for _ in 0..<searchers { workHandedOver.signal() }
  }

  private func handOver(_ subtree: Search.Subtree) {
    let someoneWaits = state.withLock { state in
      state.handedOver.append(subtree)
      return state.waiting > 0
    }
    if someoneWaits { workHandedOver.signal() }
  }

  /// What a searcher with nothing to do finds.
  enum Work {
    case given(Search)
    case subtree(Search.Subtree)
    case wait
    case over
  }

}
