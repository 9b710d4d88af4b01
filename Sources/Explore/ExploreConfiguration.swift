import EffectScheduler

/// The knobs of an exploration.
///
/// ```swift
/// var configuration = ExploreConfiguration()
/// configuration.scheduler.maxSteps = 5_000
/// try await explore(.exhaustive, configuration: configuration) { … }
/// ```
public struct ExploreConfiguration: Hashable, Sendable {
  /// The configuration of each run: how long to wait on the outside world before reporting a
  /// deadlock or stall, the step cap past which a run fails as a possible livelock, and how many
  /// timers a run may fire before ready work. Unlike a single run's default, an exploration's lets
  /// each run fire one timer early (`SchedulerConfiguration.earlyTimerFirings`), so that a
  /// timeout racing work that never sleeps is explored without configuration.
  public var scheduler: SchedulerConfiguration
  /// How often a long exploration prints progress to standard error; `nil` for never.
  public var progressInterval: Duration?
  /// Whether a search that can claim every schedule (exhaustive, reduced, preemption-bounded,
  /// the default portfolio) checks that the program behaves the same way twice: before it runs a
  /// second schedule, or claims every schedule on its first alone, it replays its first schedule
  /// and compares the traces; where they part, a first-in-first-out run and its replay decide, so
  /// that what a process does once only is not taken for nondeterminism. A search that stops at
  /// one schedule claims a sample, and replays nothing.
  public var checksDeterminism: Bool
  /// How many extra runs may be spent looking for a failing schedule with fewer preemptions than
  /// the one found first; `0` reports the first failure as it is.
  public var minimizationBudget: Int
  /// How many threads an exhaustive or reduced search runs schedules on at once; `1` (the
  /// default) runs them one after another.
  ///
  /// Each thread runs the body under its own scheduler, so the body must keep all its state
  /// inside it: state shared between runs would now be shared between runs going on at once.
  /// Every schedule is still tried exactly once, but which failure is found first, and so
  /// reported, can change from one exploration to the next. A reduced search is split into one
  /// shard a searcher (see ``Shard``), which tries a few more schedules where the shards' parts of
  /// the tree meet. Other strategies run on one thread.
  public var searchers: Int
  /// How long, and how many schedules, the default portfolio (``ExplorationStrategy/default``,
  /// what `explore { … }` runs) searches before it gives up: 2 seconds and 20,000 schedules
  /// unless set. Other strategies run the schedule counts they are given and ignore it.
  public var portfolioBudget: PortfolioBudget
  /// Which of several processes sharing the exploration this one is, such as a job of a CI
  /// matrix; `nil` (the default) runs the whole search. The `EXPLORE_SHARD=i/n` environment
  /// variable overrides it. See ``Shard`` for how each strategy is shared out.
  public var shard: Shard?
  /// Whether the program's tasks share state only through what the scheduler sees: actors, the
  /// tasks and continuations they wake, streams, `NSLock`, pthread mutexes and read–write locks,
  /// and the drop-ins `EffectMutex`, `EffectLock` and `EffectAtomic`. `false` (the default)
  /// unless set.
  ///
  /// The reduced search (``ExplorationStrategy/reduced(maxSchedules:)``, and the default
  /// portfolio's reduced part) takes two steps of different tasks or actors that ran the program's
  /// code (outside actors, or in jobs of different actors) and touched nothing in common it saw as
  /// independent. Trying a pair outside actors in the other order (``ReductionCheck``) finds a
  /// change in what the tasks do next, but cannot show that a `Mutex`, an atomic or an
  /// unchecked `Sendable` class they share ends up the same over several steps. So without this
  /// assumption a search that took such a pair claims no completeness
  /// (``ExplorationSummary/exploredEverySchedule`` is `false`, and ``ReductionCheck`` says why),
  /// and the default portfolio settles the program with its exhaustive search instead. Set it
  /// when the assumption holds, to have the reduced search's one schedule of every class count as
  /// every schedule. The assumption also drops a guess the search makes at such state (what a
  /// task saw before it stepped onto an actor, kept dependent with other tasks' steps until the
  /// actor's job runs), so the search runs fewer schedules: the catalogue's fixed three dining
  /// philosophers take 1,510 rather than 12,334, few enough for the default portfolio's budget.
  public var assumesNoUnseenSharing: Bool

  /// Creates a configuration; the defaults suit unit tests.
  public init(
    scheduler: SchedulerConfiguration = .exploring,
    progressInterval: Duration? = .seconds(2),
    checksDeterminism: Bool = true,
    minimizationBudget: Int = 2_000,
    searchers: Int = 1,
    portfolioBudget: PortfolioBudget = PortfolioBudget(),
    shard: Shard? = nil,
    assumesNoUnseenSharing: Bool = false
  ) {
    self.scheduler = scheduler
    self.progressInterval = progressInterval
    self.checksDeterminism = checksDeterminism
    self.minimizationBudget = minimizationBudget
    self.searchers = searchers
    self.portfolioBudget = portfolioBudget
    self.shard = shard
    self.assumesNoUnseenSharing = assumesNoUnseenSharing
  }
}

extension SchedulerConfiguration {
  /// An exploration's default configuration of its runs: at most 100,000 steps a run, and one
  /// timer a run may fire before ready work.
  ///
  /// It does not pause between the critical sections of one step on locks the scheduler does not
  /// control (`SchedulerConfiguration.pausesBetweenCriticalSections`): libraries built on such
  /// locks take them several times a step, and their schedules multiply past what a search
  /// settles (swift-async-algorithms' `AsyncChannel` fed by two senders: 4 schedules without,
  /// more than 20,000 with). A claim that rests on their critical sections running whole says so
  /// instead (``ExplorationAssumption/uncontrolledLocksRanWhole``), and names the setting. The
  /// default portfolio (``ExplorationStrategy/default``) then searches again, pausing between
  /// them, in what is left of its budget.
  public static var exploring: SchedulerConfiguration {
    SchedulerConfiguration(maxSteps: 100_000, earlyTimerFirings: 1)
  }
}
