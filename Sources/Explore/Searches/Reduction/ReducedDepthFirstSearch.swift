import EffectScheduler

/// A depth-first search that runs one schedule of each class of equivalent schedules rather than
/// every schedule: dynamic partial-order reduction, in its source-set form, with sleep sets.
///
/// Each run first follows the path of the run before up to the deepest choice point with an
/// option still to try, takes it, and then the first ready job that may not sleep (one explored
/// where the run left the path before, or asleep there, likely would: see below). After the run, the
/// search works out what each step touched (``StepAccesses``) and, for every race of the run,
/// makes sure that one option that starts the race's other order is tried at the first step's
/// choice point. Two schedules that differ only in the order of steps that touch nothing in
/// common are equivalent, so the search never needs to try both.
///
/// An option already explored at a choice point sleeps in the runs that take another option
/// there, for as long as they take only steps independent of it: taking it meanwhile would lead
/// to a schedule equivalent to one explored. A run that takes a sleeping option is cut there: its
/// races are not followed, and an option awake at that point is tried instead. Which options a
/// run's own steps wake is known only once it ends, so at a new choice point it passes over those
/// that may sleep: any ready job may come first there, and taking the first one regardless cut
/// most runs (22,364 of the 28,190 of the catalogue's fixed three philosophers).
///
/// What it rests on: the program's tasks share state only through actors (the main actor among
/// them) and through what the scheduler sees: tasks waking each other up (a continuation resumed,
/// a task completed, a task cancelled, an element delivered), structured children completing,
/// and notes such as those of streams made with `.effect`. State shared between tasks any other
/// way, through a lock, an atomic or an unchecked `Sendable` type touched outside an actor, is
/// invisible to it, and a race on it may be tried in one order only.
///
/// With a shard, the search splits its tree as the exhaustive search does (``ShardedOptions``):
/// a choice point whose schedules several slots share tries every option its shard has a share
/// in, with their sleep sets, and takes no reversal, since the shards together try every option
/// there; below the first choice point that one slot owns, the search is the reduced search of
/// that subtree. An option of another shard's that comes before one of its own there sleeps in it,
/// as in one search that tried them in order: a run learns what its step touches
/// (``ForeignOptionProbe``). The shards' searches together try one schedule of every class, and a
/// few more where the tree is shared.
struct ReducedDepthFirstSearch: SplittableSearch {
  typealias Node = ReducedChoicePoint

  /// The choice points of the current path, and the option each takes in the run under way.
  var path: [Node] = []
  var choices: [Int] = []
  /// The options that may sleep at the choice points past the path's end in the run under way:
  /// those asleep where it leaves the path of the run before, and those explored there already.
  /// A run that takes one of them is cut, if it still sleeps, so a new choice point takes the
  /// first ready job that is none of them, where there is one, for at most
  /// ``sleepersPassedOver`` choice points a run.
  var maySleep: [StepFootprint] = []
  /// How many new choice points of the run under way passed over a job that may sleep.
  private var passedOverSleepers = 0
  /// How many times a run passes over a job that may sleep before it stops: the search cannot
  /// tell during a run which step wakes a sleeping job, and a run that kept passing over one
  /// that its own steps woke, as a loop waiting on that job's work would, never ends (or ends
  /// only once it is scheduled fairly, ``SchedulerConfiguration/stepsBeforeFairness``, after
  /// thousands of steps that are costly to analyse). A run that then takes a job still asleep is
  /// cut, and the search tries an awake one there.
  static let sleepersPassedOver = 64
  private var started = false
  private var finished = false
  var stepsThisRun = 0
  /// Whether the run under way finished, rather than ending stuck or failing.
  var finishedRun = false
  /// The runs of the search itself, probes not counted.
  private var runs = 0
  /// The check of the pairs of steps taken as independent without seeing what they share.
  var probes = SwapProbes()
  /// The race search, the run analysed last and the facts filled for each run: taken from the
  /// spares of the searches before at the first run's analysis (not when the search is made, as
  /// a copy of it made before would share the arrays, and each would be copied at its first
  /// change), and given back when the search ends.
  var workspace = ReductionWorkspace()
  private var tookWorkspace = false
  /// Whether each run's races are also found afresh, from its first step, and compared with
  /// those the race search found from where the run parted from the one before: a check for
  /// tests, whose findings ``incrementalCheck`` counts.
  var checksIncrementalRaces = false
  /// What the check above found: the runs compared, those whose race search went on from a step
  /// after the first, and those where the two searches disagreed.
  var incrementalCheck = (runs: 0, resumed: 0, mismatches: 0)
  /// In a sharded search, its shard, counting from 0, and how many shards there are.
  let sharing: (index: Int, count: Int)?
  /// Whether the run just made ended while several slots shared it, and another shard counts it.
  var runCountedElsewhere = false
  /// In a sharded search, the runs to make to learn the steps of other shards' options, and the
  /// one under way.
  var foreignProbes: [ForeignOptionProbe] = []
  var foreignProbe: ForeignOptionProbe?
  /// In a search several searchers share, the tree of their choice points, and how many of this
  /// searcher's path's choice points are in it.
  let tree: SharedReducedTree?
  var published = 0
  /// Whether the exploration assumes the tasks share no state the scheduler cannot see: then the
  /// relation drops the guesses at such state (see ``StepAccesses``).
  var assumesNoUnseenSharing: Bool { probes.counts.assumesNoUnseenSharing }
  /// The search of every schedule this one became when its first run grew too wide to analyse
  /// (see ReducedDepthFirstSearch+Wide.swift), which it hands every call from then on.
  var wide: DepthFirstSearch?

  /// - Parameters:
  ///   - shard: the part of the search to run, or `nil` for all of it; see ``Shard``.
  ///   - assumesNoUnseenSharing: whether the exploration assumes the tasks share no state the
  ///     scheduler cannot see (``ExploreConfiguration/assumesNoUnseenSharing``), so that the
  ///     pairs of steps taken as independent unseen, tried the other way round without a change,
  ///     justify the claim of every class tried, and the relation drops its guess at unseen state
  ///     before an actor hop.
  init(shard: Shard? = nil, assumesNoUnseenSharing: Bool = false) {
    sharing = shard.flatMap { $0.count > 1 ? ($0.index - 1, $0.count) : nil }
    probes = SwapProbes(assumesNoUnseenSharing: assumesNoUnseenSharing)
    tree = nil
  }

  /// One searcher of a search that several share, through `tree` (see ``SharedReducedTree``).
  init(sharing tree: SharedReducedTree, assumesNoUnseenSharing: Bool = false) {
    sharing = nil
    probes = SwapProbes(assumesNoUnseenSharing: assumesNoUnseenSharing, sharing: tree)
    self.tree = tree
  }

  // Searchers share a reduced search through a tree of its choice points, or as shards, each its
  // own (see ``ParallelSearch``), never by handing a subtree over.
  init(subtree: Never) { switch subtree {} }
  mutating func split() -> Never? { nil }

  /// Whether the search tried one schedule of every class, and every pair of steps it took as
  /// independent unseen was tried the other way round without a change.
  var exhaustedSchedules: Bool { wide?.exhaustedSchedules ?? (finished && probes.counts.justified) }
  /// Whether the search tried one schedule of every class, justified or not.
  var searchedEveryClass: Bool { wide?.exhaustedSchedules ?? finished }
  var canStillClaimEverySchedule: Bool { wide != nil || probes.counts.canStillBeJustified }
  var learnsFromTraces: Bool { wide == nil }
  var reductionCheck: ReductionCheck? { probes.check }
  var countedElsewhere: Bool { runCountedElsewhere }

  mutating func beginRun() -> Bool {
    if wide != nil { return beginWideRun() }
    stepsThisRun = 0
    passedOverSleepers = 0
    finishedRun = false
    runCountedElsewhere = false
    if !foreignProbes.isEmpty {
      foreignProbe = foreignProbes.removeFirst()
      return true
    }
    if started, probes.beginProbe(runs: runs) { return true }
    if let tree { return beginSharedRun(tree) }
    guard started else {
      started = true
      runs += 1
      return true
    }
    // The last choice point is not bound to a name, which would hold it while the path lets it go.
    while !path.isEmpty {
      if let next = path[path.count - 1].takeNextOption(maySleep: &maySleep) {
        choices[path.count - 1] = next
        runs += 1
        return true
      }
      workspace.letGoLast(of: &path)
      choices.removeLast()
    }
    searchDidEnd()
    return false
  }

  /// ``beginRun()`` in a search several searchers share: takes the next option the tree gives,
  /// waiting while runs under way may add some.
  private mutating func beginSharedRun(_ tree: SharedReducedTree) -> Bool {
    started = true
    while true {
      switch tree.nextTurn(path: &path, choices: &choices, published: &published) {
      case .take(_, let sleeping):
        maySleep = sleeping
        runs += 1
        return true
      case .firstRun:
        runs += 1
        return true
      case .wait:
        tree.waitBriefly()
      case .finished:
        searchDidEnd()
        return false
      case .abandoned:
        return false
      }
    }
  }

  mutating func searchDidEnd() {
    finished = true
    probes.searchDidEnd()
    if tookWorkspace {
      tookWorkspace = false
      ReductionWorkspace.giveBack(&workspace)
    }
  }

  /// In a search several searchers share, tells the others that this one stopped before the
  /// search's end (at a failure, a limit or a deadline), so that none waits for its runs.
  func searchDidStop() {
    if !finished { tree?.abandon() }
  }

  mutating func nextJob(among ready: [ReadyJob], step: Int) throws -> Int {
    try nextJob(among: ready, step: step, kept: nil)
  }

  mutating func nextJob(among ready: [ReadyJob], step: Int, kept: Int?) throws -> Int {
    if wide != nil { return try wide!.nextJob(among: ready, step: step, kept: kept) }
    stepsThisRun = step + 1
    if foreignProbe != nil { return try foreignProbe!.nextJob(among: ready, step: step) }
    if probes.probing { return try probes.nextJob(among: ready, step: step) }
    guard step < path.count else {
      guard let sharing, let slots = slotsSharingPath else {
        if ready.count > RacePass.maxColumns, runs == 1, tree == nil { return try becomeWide(at: step, among: ready) }
        // Any ready job may come first at a new choice point; one that may sleep would likely
        // cut the run, and the search would run it again with another.
        var chosen = 0
        let node = newChoicePoint(ready: ready, tried: PositionSet(0))
        if !maySleep.isEmpty, node.isAsleep(0, among: maySleep), let awake = ready.indices.first(where: { !node.isAsleep($0, among: maySleep) }) {
          chosen = awake
          node.tried = PositionSet(awake)
          passedOverSleepers += 1
          if passedOverSleepers == Self.sleepersPassedOver { maySleep.removeAll(keepingCapacity: true) }
        }
        path.append(node)
        choices.append(chosen)
        return chosen
      }
      let options = ShardedOptions(group: slots, shard: sharing, options: ready.count)
      let own = options.ownOptions
      path.append(newChoicePoint(ready: ready, tried: PositionSet(own[0]), toTry: PositionSet(own.dropFirst()), sharing: options))
      choices.append(own[0])
      let prefix = zip(path, choices).map { (ready: $0.ready, chosen: $1) }
      for option in 0..<own[own.count - 1] where !own.contains(option) {
        foreignProbes.append(ForeignOptionProbe(option: option, atDepth: step, of: prefix))
      }
      return own[0]
    }
    try ReplayDivergence.check(ready, areAsBefore: path[step].ready, whichTook: choices[step], atStep: step)
    return choices[step]
  }

  mutating func runDidFinish(steps: Int) throws {
    if wide != nil { return try wide!.runDidFinish(steps: steps) }
    if probes.probing, foreignProbe == nil { probes.runDidFinish() } else { finishedRun = true }
  }

  /// Takes the workspace from the spares of the searches before, if this search has not yet.
  mutating func takeWorkspace() {
    guard !tookWorkspace else { return }
    tookWorkspace = true
    workspace = .take()
  }

  /// A new choice point, made from one the path let go if the workspace keeps one: in a search
  /// the searchers share, whose choice points outlive a path, always a new one.
  private mutating func newChoicePoint(ready: [ReadyJob], tried: PositionSet, toTry: PositionSet = [], sharing: ShardedOptions? = nil) -> Node {
    guard tree == nil else { return Node(ready: ready, tried: tried, toTry: toTry, sharing: sharing) }
    takeWorkspace()
    return workspace.choicePoint(ready: ready, tried: tried, toTry: toTry, sharing: sharing)
  }

  /// Shortens the path, in a search of its own, to its first `depth` choice points, keeping those
  /// it lets go for new ones.
  mutating func truncatePath(to depth: Int) {
    while path.count > depth { workspace.letGoLast(of: &path) }
    choices.removeLast(choices.count - depth)
  }

  /// In a sharded search, the slots whose schedules pass through the current path, if that is
  /// more than one (see ``ShardedOptions``).
  var slotsSharingPath: Range<Int>? {
    guard let sharing else { return nil }
    guard let last = path.last else { return ShardedOptions.allSlots(shards: sharing.count) }
    guard let below = last.sharing?.group(belowOption: choices[path.count - 1]), below.count > 1 else { return nil }
    return below
  }

}

