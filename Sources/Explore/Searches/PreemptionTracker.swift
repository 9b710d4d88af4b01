import EffectScheduler

/// Counts preemptions as a run goes: a step that runs another job while the task that ran last
/// could have gone on. A default actor's job is a step of the task it was scheduled for
/// (``ReadyJob/owner``), the task the trace names first for it: a task that steps onto an idle
/// actor goes on through the actor's job, and running anything else first preempts it.
struct PreemptionTracker {
  private(set) var count = 0
  private(set) var lastTask: TaskID?

  /// Whether running `ready[position]` now would preempt the task that ran last: another job is
  /// its continuation (``continuing(among:)``). Where several ready jobs are the task's (jobs of
  /// actors scheduled for it), only the first counts as going on with it, and running another
  /// first as a switch: a search bounded at its preemptions, which at the bound takes only that
  /// first one, then agrees with the count, so each schedule has one count whatever the bound,
  /// and the schedules with exactly n preemptions, searched bound by bound, are all tried.
  func wouldPreempt(choosing position: Int, among ready: [ReadyJob]) -> Bool {
    guard let continuing = continuing(among: ready) else { return false }
    return position != continuing
  }

  /// The position of a job of the task that ran last, if one is ready: the choice that does not
  /// preempt.
  func continuing(among ready: [ReadyJob]) -> Int? {
    guard let lastTask else { return nil }
    return ready.firstIndex { $0.owner == lastTask }
  }

  mutating func record(choosing position: Int, among ready: [ReadyJob]) {
    if wouldPreempt(choosing: position, among: ready) { count += 1 }
    lastTask = ready[position].owner
  }
}

/// Wraps a search to count the preemptions of each run's schedule, unless the search counts them
/// itself.
struct PreemptionCounting<Base: ExplorationSearch>: ExplorationSearch {
  var base: Base
  private var tracker = PreemptionTracker()

  init(_ base: Base) { self.base = base }

  var seed: UInt64? { base.seed }
  var exhaustedSchedules: Bool { base.exhaustedSchedules }
  var countedElsewhere: Bool { base.countedElsewhere }
  var preemptionsSoFar: Int? { preemptions }
  /// The preemptions of the run under way.
  var preemptions: Int { base.preemptionsSoFar ?? tracker.count }

  mutating func beginRun() -> Bool {
    tracker = PreemptionTracker()
    return base.beginRun()
  }

  mutating func nextJob(among ready: [ReadyJob], step: Int) throws -> Int {
    try nextJob(among: ready, step: step, kept: nil)
  }

  mutating func nextJob(among ready: [ReadyJob], step: Int, kept: Int?) throws -> Int {
    let position = try base.nextJob(among: ready, step: step, kept: kept)
    if base.preemptionsSoFar == nil, ready.indices.contains(position) { tracker.record(choosing: position, among: ready) }
    return position
  }

  mutating func runDidFinish(steps: Int) throws { try base.runDidFinish(steps: steps) }

  var learnsFromTraces: Bool { base.learnsFromTraces }
  mutating func runDidEnd(trace: Trace) { base.runDidEnd(trace: trace) }
  var reductionCheck: ReductionCheck? { base.reductionCheck }
  var canStillClaimEverySchedule: Bool { base.canStillClaimEverySchedule }
}

extension PreemptionCounting: Sendable where Base: Sendable {}
