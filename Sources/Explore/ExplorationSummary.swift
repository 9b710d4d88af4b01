import EffectScheduler

/// What an exploration that found no failure did.
public struct ExplorationSummary: Hashable, Sendable, CustomStringConvertible {
  /// The strategy that ran.
  public var strategy: String
  /// How many schedules the strategy ran (the determinism check's own runs not counted).
  public var schedules: Int
  /// How many different traces those schedules produced.
  public var distinctTraces: Int
  /// What the exploration claims of the program: every schedule, every schedule given named
  /// assumptions, or a sample (see ``ExplorationClaim``).
  public var claim: ExplorationClaim
  /// Whether the search tried every schedule there is, resting on no assumption (``claim`` is
  /// unqualified); with a ``shard``, every schedule of its share.
  ///
  /// A schedule is an order of the run's steps: the code between two suspension points, actor
  /// hops and the drop-ins' scheduling points runs whole, so orders in which another task runs in
  /// the middle of a step, as it may on real threads, are not among them (a task started and the
  /// code after it, a stream's `yield` and `finish`, a cancellation handler and the cancelled
  /// task's step). Shared state behind `EffectMutex`, `EffectLock` or `EffectAtomic` splits steps
  /// at each access.
  public var exploredEverySchedule: Bool { claim.isUnqualified }
  /// How long the exploration took.
  public var duration: Duration
  /// For the default portfolio, the parts that ran, in order, and how far each got; empty for
  /// other strategies.
  public var portfolioParts: [PortfolioPartSummary]
  /// For the default portfolio, the limit of its budget that ended the search before it tried
  /// every schedule; `nil` when its exhaustive part tried them all, and for other strategies.
  public var budgetRanOut: PortfolioBudget.Limit?
  /// For a preemption-bounded search that tried every schedule with at most this many
  /// preemptions before its schedule limit, the bound; `nil` otherwise. With a ``shard``, it
  /// tried every such schedule of its share.
  public var everyScheduleWithPreemptions: Int?
  /// The shard whose share of the schedules this exploration ran, when it ran one (see
  /// ``Shard``); `nil` when it ran the whole search.
  public var shard: Shard?
  /// Whether steps took locks the scheduler does not control: an `NSLock`, a `pthread_mutex_t`
  /// or a `pthread_rwlock_t` (seen on 64-bit Linux), in the runs that note the locks they take:
  /// the determinism check's first-in-first-out runs (``ExploreConfiguration/checksDeterminism``),
  /// every run of a reduced search, and the first run of every other search (a lock that only
  /// other schedules of those take goes unnoted without the determinism check). A critical
  /// section behind such a lock runs within one step, so races inside it, or between two of them
  /// in one step (another task taking the lock in between), are in no schedule explored. `Mutex`
  /// and atomics outside instrumented code are not seen taken; objects that hold them, made by a
  /// run's steps, are (``ExplorationAssumption/synchronizationRanWhole``, 64-bit Linux). The
  /// drop-ins `EffectLock`, `EffectMutex` and `EffectAtomic` are controlled, and so are these
  /// three locks where each acquire is a scheduling point
  /// (`SchedulerConfiguration.pausesAtUncontrolledLocks`): then only the acquires that were none
  /// count, those made holding another such lock or in a cancellation handler. In code built
  /// instrumented (``instrumented``), `Mutex` and atomics are scheduling points.
  public var tookUncontrolledLocks: Bool { claim.assumptions.contains(.uncontrolledLocksRanWhole) }
  /// For a reduced search, how it checked the pairs of steps it took as independent without
  /// seeing what they share; `nil` for other strategies. A reduced search claims
  /// ``exploredEverySchedule`` only when the check justifies it (``ReductionCheck/justified``).
  public var reductionCheck: ReductionCheck?
  /// The first thing a run met that no schedule can show, in words; `nil` when no run met one.
  /// The exploration then does not claim ``exploredEverySchedule``. It is one of:
  /// - a step that made a task ready and then cancelled it (`step 0 made task #1 unstructured
  ///   ready, then cancelled it: …`), off 64-bit Linux, or through a call the scheduler cannot
  ///   pause at: on real threads the task may start between the two and find itself not
  ///   cancelled. On 64-bit Linux `Task.cancel()` there is a scheduling point, and both orders
  ///   are explored;
  /// - a cancellation handler that waited for an `EffectLock` or `EffectMutex` another task held:
  ///   the runtime runs a handler holding the cancelled task's lock, where the scheduler cannot
  ///   pause it, so runs that reach such a wait stop there and are not judged.
  public var unexplored: String?
  /// The runtime mechanisms that were off for this exploration, as
  /// `RuntimeCapabilities.current` lists them for the process and the configuration left off;
  /// empty where every one was verified. A claim that depends on one of them says so in its
  /// ``claim``'s assumptions.
  public var mechanismsOff: [RuntimeMechanism] = []
  /// Whether code in this process was built instrumented (`-Xfrontend -sanitize=thread`, see
  /// <doc:InstrumentedBuilds>): then every atomic operation of that code, `Mutex` critical
  /// sections included, was a scheduling point, and its plain reads and writes were checked for
  /// data races in every run.
  public var instrumented = false

  /// Creates a summary.
  package init(
    strategy: String, schedules: Int, distinctTraces: Int, claim: ExplorationClaim, duration: Duration,
    portfolioParts: [PortfolioPartSummary] = [], budgetRanOut: PortfolioBudget.Limit? = nil,
    everyScheduleWithPreemptions: Int? = nil, shard: Shard? = nil, reductionCheck: ReductionCheck? = nil, unexplored: String? = nil
  ) {
    self.claim = claim
    self.unexplored = unexplored
    self.reductionCheck = reductionCheck
    self.everyScheduleWithPreemptions = everyScheduleWithPreemptions
    self.shard = shard
    self.strategy = strategy
    self.schedules = schedules
    self.distinctTraces = distinctTraces
    self.duration = duration
    self.portfolioParts = portfolioParts
    self.budgetRanOut = budgetRanOut
  }

  /// `1680 schedules, 1680 distinct traces, every schedule explored, in 0.05 s (33600 schedules/s)`,
  /// then the strategy, and for the default portfolio what ended it and what each part ran. A
  /// shard's starts with the shard and claims only its share: `shard 2 of 4: 412 schedules, …,
  /// every schedule of this shard explored, …`. A claim that rests on assumptions says
  /// `every schedule explored given the assumptions below` and names each, with the setting that
  /// removes it; so does a sample's; and for a reduced search it says how it checked what it
  /// assumed (``reductionCheck``).
  public var description: String {
    let seconds = duration.seconds
    let rate = seconds > 0 ? " (\(Int(Double(schedules) / seconds)) schedules/s)" : ""
    let rounded = (seconds * 1000).rounded() / 1000
    let share = shard == nil ? "" : " of this shard"
    let extent =
      claim.isUnqualified ? ", every schedule\(share) explored"
      : claim.coversEverySchedule ? ", every schedule\(share) explored given the assumptions below" : ""
    var text = (shard.map { "\($0): " } ?? "") + "\(schedules) schedules, \(distinctTraces) distinct traces" + extent
      + (everyScheduleWithPreemptions.map { ", every schedule\(share) with at most \($0) preemptions explored" } ?? "")
      + ", in \(rounded) s\(rate) [\(strategy)]"
    if let budgetRanOut {
      text += "; \(budgetRanOut) ran out before every schedule was tried"
    }
    for assumption in claim.assumptions {
      text += "; assumed: \(assumption.withItsSetting)"
    }
    if let reductionCheck { text += "; \(reductionCheck)" }
    if let unexplored { text += "; \(unexplored), so not every schedule was explored" }
    if instrumented { text += "; instrumented: atomics and Mutex were scheduling points, data races were looked for" }
    if !mechanismsOff.isEmpty {
      text += "; off in this process: " + mechanismsOff.map { "\($0) (\($0.withoutIt))" }.joined(separator: ", ")
    }
    if !portfolioParts.isEmpty {
      text += "; parts: " + portfolioParts.map(\.description).joined(separator: "; ")
    }
    return text
  }
}
