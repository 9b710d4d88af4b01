import EffectScheduler

/// A strategy that drives a whole exploration: it is asked before each run whether there is one
/// more schedule to try, then acts as the run's ``SchedulingStrategy``.
protocol ExplorationSearch: SchedulingStrategy {
  /// Prepares the next run; returns `false` when the search has nothing left to try.
  mutating func beginRun() -> Bool
  /// The seed that reproduces the current run, for searches driven by a random generator.
  var seed: UInt64? { get }
  /// Whether the search tried every schedule there is (only an exhaustive search can say so).
  var exhaustedSchedules: Bool { get }
  /// Whether the run just made is not this search's to count: a preemption-bounded search repeats
  /// schedules of fewer preemptions than its bound, tried earlier in the exploration, and a
  /// sharded search runs a few schedules that another shard counts (see ``Shard``).
  var countedElsewhere: Bool { get }
  /// The preemptions of the run under way, for a search that counts them itself; `nil` for one
  /// that does not, whose runs ``PreemptionCounting`` counts.
  var preemptionsSoFar: Int? { get }
  /// Whether the search learns from each run's trace (``runDidEnd(trace:)``); building the trace
  /// costs a little, so only such searches get it.
  var learnsFromTraces: Bool { get }
  /// ``SchedulingStrategy/nextJob(among:step:)``, told, where the scheduler knows it, that the
  /// first `kept` of `ready` are the jobs offered at the step before, less the one taken there.
  mutating func nextJob(among ready: [ReadyJob], step: Int, kept: Int?) throws -> Int
  /// Tells the search what happened in the run just made, before it is asked for the next.
  mutating func runDidEnd(trace: Trace)
  /// For a reduced search, how it checked what it took as independent unseen; `nil` for others.
  var reductionCheck: ReductionCheck? { get }
  /// Whether the search may still claim every schedule tried once it ends: `false` once a reduced
  /// search took what it cannot justify.
  var canStillClaimEverySchedule: Bool { get }
}

extension ExplorationSearch {
  var seed: UInt64? { nil }
  var exhaustedSchedules: Bool { false }
  var countedElsewhere: Bool { false }
  var preemptionsSoFar: Int? { nil }
  var learnsFromTraces: Bool { false }
  mutating func nextJob(among ready: [ReadyJob], step: Int, kept: Int?) throws -> Int { try nextJob(among: ready, step: step) }
  mutating func runDidEnd(trace: Trace) {}
  var reductionCheck: ReductionCheck? { nil }
  var canStillClaimEverySchedule: Bool { true }
}

extension ReplayDivergence {
  /// Checks that `ready` are the jobs an earlier run with the same choices had ready at `step`,
  /// `before`, where it took position `chosen`; throws the divergence when they are not, for the
  /// program is then not deterministic and a search would miss or repeat schedules.
  static func check(_ ready: [ReadyJob], areAsBefore before: [ReadyJob], whichTook chosen: Int, atStep step: Int) throws {
    guard before != ready else { return }
    throw ReplayDivergence(step: step, expected: ScheduleChoice(picking: before[chosen], at: chosen), ready: ready, readyBefore: before)
  }

  /// ``check(_:areAsBefore:whichTook:atStep:)`` for the jobs of one step of a run's lists.
  static func check(_ ready: [ReadyJob], areAsBefore before: ArraySlice<ReadyJob>, whichTook chosen: Int, atStep step: Int) throws {
    guard !ready.elementsEqual(before) else { return }
    try check(ready, areAsBefore: Array(before), whichTook: chosen, atStep: step)
  }
}

extension StrategyReference {
  /// A reference to `search` whose closures, made in this module, call it directly. A search that
  /// learns from traces gets every task an actor's job ran listed in them.
  init(search: UnsafeMutablePointer<some ExplorationSearch>) {
    self.init(
      nextJob: { ready, step, kept in try search.pointee.nextJob(among: ready, step: step, kept: kept) },
      runDidFinish: { steps in try search.pointee.runDidFinish(steps: steps) })
    listsQueuedActorWork = search.pointee.learnsFromTraces
    watchesHiddenAccesses = search.pointee.learnsFromTraces
  }

  /// This reference, for a run that notes the locks its steps take, where its runs do not watch
  /// them already: a search's first run, so that its summary says whether steps took locks the
  /// scheduler does not control (``ExplorationSummary/tookUncontrolledLocks``) without the
  /// determinism check. One run costs little, and shows the locks of the program's usual path;
  /// a lock taken only in other schedules goes unnoted.
  func watchingLocks() -> StrategyReference {
    var watching = self
    watching.watchesLocks = !watchesHiddenAccesses
    return watching
  }
}
