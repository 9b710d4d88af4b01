/// How a reduced search (``ExplorationStrategy/reduced``) checked what it assumed.
///
/// The reduction tries one schedule of each class of equivalent schedules. Two steps of different
/// tasks or actors that ran the program's code (outside actors, or in jobs of different actors)
/// and touched nothing in common that the scheduler saw (an actor, a task they wake, a lock it
/// sees, a drop-in's object) are taken as independent. They may still share state the scheduler
/// cannot see: a `Mutex`, an atomic, a class marked `@unchecked Sendable`, which an actor's method
/// may touch as much as a task's code outside actors. So the search tries each such pair of steps
/// outside actors once in the other order, and compares what follows; ``firstChange`` names the
/// first pair whose other order changed it. A pair with an actor's job is only counted
/// (``actorJobPairs``).
///
/// Swapping each pair once is a test, not a proof: a race among three or more steps on unseen
/// state, or one whose other order changes only data that no task acts on, may still be missed.
/// So the search claims every schedule explored (``ExplorationSummary/exploredEverySchedule``)
/// only when it took no such pair, or when the exploration assumes the tasks share nothing the
/// scheduler cannot see (``ExploreConfiguration/assumesNoUnseenSharing``) and every pair was
/// tried without a change. Where tasks share state outside actors, the drop-ins `EffectMutex`,
/// `EffectLock` and `EffectAtomic` make each access a step the search sees.
public struct ReductionCheck: Hashable, Sendable, CustomStringConvertible {
  /// The pairs of steps taken as independent without seeing what they share, each of which the
  /// search tries once the other way round.
  public var assumedPairs = 0
  /// The pairs of steps taken as independent without seeing what they share where one step is an
  /// actor's job (the main actor's among them): none is tried the other way round, as an actor's
  /// job runs the work of whichever tasks its queue holds, and only the assumption that the tasks
  /// share nothing unseen (``assumesNoUnseenSharing``) covers them.
  public var actorJobPairs = 0
  /// The pairs tried in the other order, and those whose other order changed what followed: a job
  /// not ready when its turn came, a task doing something else, or the run ending otherwise.
  public var swapsTried = 0
  public var swapsChanged = 0
  /// The pairs left untried when the search ended: those beyond the probes' budget (as many runs
  /// as the search's own, plus 64), and those whose swap would renumber the tasks they create.
  public var unchecked = 0
  /// The first pair whose other order changed what followed, in words.
  public var firstChange: String?
  /// The first pair taken as independent without seeing what its steps share, in words.
  public var firstAssumedPair: String?
  /// Whether the exploration assumed the tasks share no state the scheduler cannot see
  /// (``ExploreConfiguration/assumesNoUnseenSharing``).
  public var assumesNoUnseenSharing = false
  /// Whether the code under test was instrumented (see <doc:InstrumentedBuilds>), so that the
  /// search saw what the steps of its runs read and wrote, and took no pair as independent
  /// unseen in those runs: only code built without the instrumentation may still share state
  /// unseen.
  public var followedAccesses = false

  /// Creates an empty check.
  public init() {}

  /// Adds the counts of `other`, a check of another part of the same search, keeping the first
  /// change found.
  mutating func add(_ other: ReductionCheck) {
    assumedPairs += other.assumedPairs
    swapsTried += other.swapsTried
    swapsChanged += other.swapsChanged
    unchecked += other.unchecked
    actorJobPairs += other.actorJobPairs
    if firstChange == nil { firstChange = other.firstChange }
    if firstAssumedPair == nil { firstAssumedPair = other.firstAssumedPair }
    assumesNoUnseenSharing = assumesNoUnseenSharing || other.assumesNoUnseenSharing
    followedAccesses = followedAccesses || other.followedAccesses
  }

  /// Whether the search took no pair of either kind as independent without seeing what it shares.
  private var tookNoPairUnseen: Bool { assumedPairs + actorJobPairs == 0 }

  /// Whether the search may claim every schedule explored: it took no pair as independent
  /// unseen, or the exploration assumes no unseen sharing and every pair was tried the other way
  /// round without a change.
  public var justified: Bool { tookNoPairUnseen || assumesNoUnseenSharing && swapsChanged == 0 && unchecked == 0 }

  /// Whether the search may still claim every schedule explored once it ends: no pair tried so
  /// far rules it out.
  var canStillBeJustified: Bool { tookNoPairUnseen || assumesNoUnseenSharing && swapsChanged == 0 }

  /// `12 pairs of steps taken as independent unseen, each tried the other way round
  /// without a change`, or what went wrong.
  public var description: String {
    if followedAccesses, tookNoPairUnseen {
      return "no pair of steps taken as independent unseen: the instrumented code's reads and writes were followed"
    }
    let actorPairs = actorJobPairs == 0 ? "" : " (and \(actorJobPairs) with an actor's job, not tried)"
    let pairs = "\(assumedPairs) pair\(assumedPairs == 1 ? "" : "s") of steps taken as independent unseen\(actorPairs)"
    if let firstChange {
      return "\(pairs), but \(swapsChanged) of \(swapsTried) tried the other way round changed what followed, so the "
        + "reduction could not be justified: the steps depend on each other in a way the scheduler does not see, most "
        + "often through state shared outside actors and the drop-ins (a Mutex, an atomic, an unchecked Sendable class); "
        + "first, \(firstChange)"
    }
    if unchecked > 0 {
      return "\(pairs), \(unchecked) of them not tried the other way round, so the reduction could not be justified"
    }
    let tried = "\(pairs), each tried the other way round without a change"
    if tookNoPairUnseen || assumesNoUnseenSharing { return tried }
    return "\(tried), but the reduction could not be justified: one swap cannot show that the tasks share no state the "
      + "scheduler cannot see (a Mutex, an atomic, an unchecked Sendable class) over several steps; first, "
      + "\(firstAssumedPair ?? "a pair") (set ExploreConfiguration.assumesNoUnseenSharing where they share none)"
  }
}
