import EffectScheduler

/// How ``explore(_:configuration:fileID:filePath:line:column:_:)`` picks the schedules it runs.
///
/// ```swift
/// try await explore(.exhaustive) { … }                        // every interleaving
/// try await explore(.preemptionBounded(2)) { … }               // at most 2 preemptions
/// try await explore(.pct(depth: 3, schedules: 500)) { … }      // probabilistic
/// try await explore(.replay("s1:0.1.2.1.a0.2")) { … }           // one schedule from a report
/// ```
public struct ExplorationStrategy: Hashable, Sendable, CustomStringConvertible {
  enum Kind: Hashable, Sendable {
    case exhaustive(maxSchedules: Int?)
    case reduced(maxSchedules: Int?)
    case preemptionBounded(maxPreemptions: Int, maxSchedules: Int?)
    case random(schedules: Int, seed: UInt64)
    case pct(depth: Int, schedules: Int, seed: UInt64)
    case replay(String)
    case sequence([ExplorationStrategy])
    case portfolio
  }

  let kind: Kind

  /// The seed the random strategies use unless given another, so CI runs are repeatable.
  public static let defaultSeed: UInt64 = 0x5EED_CAFE

  /// Every distinct interleaving exactly once, by depth-first search.
  public static let exhaustive = ExplorationStrategy(kind: .exhaustive(maxSchedules: nil))

  /// Every distinct interleaving exactly once, stopping after `maxSchedules` schedules.
  public static func exhaustive(maxSchedules: Int?) -> ExplorationStrategy {
    ExplorationStrategy(kind: .exhaustive(maxSchedules: maxSchedules))
  }

  /// One schedule of each class of equivalent schedules, by depth-first search with dynamic
  /// partial-order reduction: see ``reduced(maxSchedules:)``.
  public static let reduced = ExplorationStrategy(kind: .reduced(maxSchedules: nil))

  /// One schedule of each class of equivalent schedules, by depth-first search with dynamic
  /// partial-order reduction: two schedules that differ only in the order of steps that touch
  /// nothing in common (jobs of different actors, tasks' own work between their suspension
  /// points) are equivalent, and only one of them runs. It finds what ``exhaustive`` finds, in
  /// fewer schedules (13 to more than 20 times fewer on the actor-heavy programs of
  /// `Benchmarks reduction`), provided the program's tasks share state only through actors and
  /// through what the scheduler sees: a continuation resumed, a task completed or cancelled, a
  /// stream's buffer, and, on 64-bit Linux, an `NSLock`, a `pthread_mutex_t` or a
  /// `pthread_rwlock_t`. State shared through `Synchronization.Mutex`, an atomic or an unchecked
  /// `Sendable` type, outside those locks, is invisible to it: the search tries each pair of steps
  /// outside actors it takes as independent unseen the other way round, and claims every class
  /// explored only where it took no such pair (nor one with an actor's job), or where the
  /// exploration assumes no unseen sharing and no swap changed what followed (``ReductionCheck``). It stops after `maxSchedules` schedules when
  /// given; ``ExplorationSummary/exploredEverySchedule`` then means every class was tried. With
  /// ``ExploreConfiguration/searchers`` above 1, or a ``Shard``, its tree is split as the
  /// exhaustive search's is, each searcher taking shards of its own.
  ///
  /// ```swift
  /// try await explore(.reduced) { await transfer(between: accounts) }
  /// try await explore(.reduced(maxSchedules: 10_000)) { await transfer(between: accounts) }
  /// ```
  public static func reduced(maxSchedules: Int? = nil) -> ExplorationStrategy {
    ExplorationStrategy(kind: .reduced(maxSchedules: maxSchedules))
  }

  /// Every schedule with at most `maxPreemptions` preemptions, each exactly once, and none with
  /// more: a preemption is a step that switches away from a task that could have gone on, and
  /// most schedule-dependent bugs need at most two. The search goes bound by bound, as iterative
  /// context bounding does: the schedules with no preemption, then those with exactly one, and
  /// so on, so a bug is met among the schedules with the fewest preemptions it needs. Each bound
  /// is searched depth first, trying the choice that lets the running task go on before the
  /// others, and a failure it finds is reported with the fewest preemptions a short follow-up
  /// search can find (see ``ExploreConfiguration/minimizationBudget``).
  public static func preemptionBounded(_ maxPreemptions: Int = 2, maxSchedules: Int? = nil) -> ExplorationStrategy {
    ExplorationStrategy(kind: .preemptionBounded(maxPreemptions: max(0, maxPreemptions), maxSchedules: maxSchedules))
  }

  /// `schedules` runs, each picking ready jobs uniformly at random. The first run uses `seed`
  /// itself, so `.random(schedules: 1, seed: s)` replays a run a report names by seed `s`.
  public static func random(schedules: Int = 1_000, seed: UInt64 = defaultSeed) -> ExplorationStrategy {
    ExplorationStrategy(kind: .random(schedules: max(0, schedules), seed: seed))
  }

  /// Probabilistic concurrency testing with bug depth `depth`: random task priorities plus
  /// `depth − 1` random priority-change points. For `n` tasks and `k` steps each run finds a
  /// depth-`depth` bug with probability at least 1 / (n · k^(depth−1)). An actor's job runs at the
  /// priority of the task whose work it runs, so PCT can delay it too. The first run uses `seed`
  /// itself, so `.pct(depth: d, schedules: 1, seed: s)` replays a run a report names by seed `s`.
  /// A first-in-first-out run comes before the PCT runs, to measure how many steps a run takes; a
  /// failure only it finds is reported as found by that run.
  public static func pct(depth: Int = 3, schedules: Int = 1_000, seed: UInt64 = defaultSeed) -> ExplorationStrategy {
    ExplorationStrategy(kind: .pct(depth: max(1, depth), schedules: max(0, schedules), seed: seed))
  }

  /// Runs exactly the schedule a failure report printed, such as `"s1:0.1.2*3.a0"`.
  public static func replay(_ schedule: String) -> ExplorationStrategy {
    ExplorationStrategy(kind: .replay(schedule))
  }

  /// Runs exactly `schedule`.
  public static func replay(_ schedule: Schedule) -> ExplorationStrategy {
    ExplorationStrategy(kind: .replay(schedule.description))
  }

  /// Runs each strategy in turn until one finds a failure or one has tried every schedule there is.
  package static func sequence(_ strategies: [ExplorationStrategy]) -> ExplorationStrategy {
    ExplorationStrategy(kind: .sequence(strategies))
  }

  /// The default, what `explore { … }` runs: a portfolio of strategies sharing one budget,
  /// ``ExploreConfiguration/portfolioBudget`` (2 seconds and 20,000 schedules unless set).
  ///
  /// 1. The reduced search (``reduced(maxSchedules:)``), which settles small programs completely:
  ///    when it tries one schedule of every class and justifies what it took as independent, the
  ///    exploration ends there, with ``ExplorationSummary/exploredEverySchedule``. As soon as it
  ///    cannot claim that (it took two steps as independent that may share state the scheduler
  ///    cannot see, and ``ExploreConfiguration/assumesNoUnseenSharing`` is off, or a swap showed
  ///    they do share some), it stops, and the exhaustive search takes over in what is left of
  ///    its share, settling the program when it tries every schedule.
  /// 2. The schedules with exactly 0, then 1, then 2 preemptions, where most schedule-dependent
  ///    bugs show up in programs too large to search completely.
  /// 3. PCT of depth 3 and uniformly random runs, taking turns until the budget runs out.
  ///
  /// The reduced and exhaustive searches together may run up to half the schedule budget and
  /// take up to half the time budget, so that a space they can finish is settled, even on a
  /// loaded machine; each preemption bound runs at most a tenth of the schedules, and they share
  /// half the time left after them, a third of that each; PCT and random get the rest of both
  /// budgets.
  ///
  /// Where the search settled the program, but its claim rests on critical sections of locks the
  /// scheduler does not control running whole (an `NSLock`, a `pthread_mutex_t` or a
  /// `pthread_rwlock_t`: ``ExplorationAssumption/uncontrolledLocksRanWhole``), the portfolio runs
  /// again, parts 1 to 3, in what is left of its budget, pausing between two critical sections of
  /// one step (`SchedulerConfiguration.pausesBetweenCriticalSections`): a check in one and an act
  /// in the next, which another task may come between on real threads, fail there. If that search
  /// settles too, the claim no longer rests on the assumption; if the budget runs out first, the
  /// first search's claim stands, with it. Its parts are marked in
  /// ``ExplorationSummary/portfolioParts`` (``PortfolioPartSummary/splitsCriticalSections``), and
  /// a schedule it found replays so (`s1:cs.…`).
  ///
  /// A failure, whichever part finds it, is reported after the usual search for a schedule with
  /// fewer preemptions, and ``ExplorationFailure/portfolioPart`` names the part. A search that
  /// finds no failure and ends by its budget says so in its summary
  /// (``ExplorationSummary/budgetRanOut``, ``ExplorationSummary/portfolioParts``): it did not
  /// try every schedule.
  ///
  /// With a time budget, where each part stops can depend on the speed of the machine, so two
  /// machines can find different failing schedules (each report replays on any machine);
  /// `PortfolioBudget(time: nil)` makes the search depend on the schedule count alone.
  public static let `default` = ExplorationStrategy(kind: .portfolio)

  /// Whether the strategy runs one given schedule.
  var isReplay: Bool {
    if case .replay = kind { return true }
    return false
  }

  /// A short name with the parameters: `exhaustive DFS (at most 2000 schedules)`.
  public var description: String {
    switch kind {
    case .exhaustive(let maxSchedules):
      return "exhaustive DFS" + (maxSchedules.map { " (at most \($0) schedules)" } ?? "")
    case .reduced(let maxSchedules):
      return "exhaustive DFS with partial-order reduction" + (maxSchedules.map { " (at most \($0) schedules)" } ?? "")
    case .preemptionBounded(let maxPreemptions, let maxSchedules):
      return "preemption-bounded DFS (up to \(maxPreemptions) preemptions"
        + (maxSchedules.map { ", at most \($0) schedules)" } ?? ")")
    case .random(let schedules, let seed):
      return "random (\(schedules) schedules, seed \(seed))"
    case .pct(let depth, let schedules, let seed):
      return "PCT depth \(depth) (\(schedules) schedules, seed \(seed))"
    case .replay(let schedule):
      return "replay of \(schedule)"
    case .sequence(let strategies):
      return strategies.map(\.description).joined(separator: ", then ")
    case .portfolio:
      return "default portfolio (reduced DFS, exhaustive DFS where it cannot justify itself, preemption bounds 0, 1 and 2, then PCT depth \(PortfolioPlan.pctDepth) and random)"
    }
  }
}
