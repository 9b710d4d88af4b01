import EffectScheduler

/// A depth-first search that runs one schedule of each class of equivalent schedules rather than
/// every schedule: dynamic partial-order reduction, in its source-set form, with sleep sets.
///
/// Each run first follows the path of the run before up to the deepest choice point with an
/// option still to try, takes it, and then the first ready job that may not sleep (one explored
/// where the run left the path before, or asleep there, likely would: see below). After the run, the
/// oracle works out what each step touched (``StepAccesses``) and, for every race of the run,
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
struct ReducedDepthFirstOracle: SplittableOracle {
  private typealias Node = ReducedChoicePoint

  /// The choice points of the current path, and the option each takes in the run under way.
  private var path: [Node] = []
  private var choices: [Int] = []
  /// The options that may sleep at the choice points past the path's end in the run under way:
  /// those asleep where it leaves the path of the run before, and those explored there already.
  /// A run that takes one of them is cut, if it still sleeps, so a new choice point takes the
  /// first ready job that is none of them, where there is one, for at most
  /// ``sleepersPassedOver`` choice points a run.
  private var maySleep: [StepFootprint] = []
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
  private var stepsThisRun = 0
  /// Whether the run under way finished, rather than ending stuck or failing.
  private var finishedRun = false
  /// The runs of the search itself, probes not counted.
  private var runs = 0
  /// The check of the pairs of steps taken as independent without seeing what they share.
  private var probes = SwapProbes()
  /// The race search, the run analysed last and the facts filled for each run: taken from the
  /// spares of the searches before at the first run's analysis (not when the oracle is made, as
  /// a copy of it made before would share the arrays, and each would be copied at its first
  /// change), and given back when the search ends.
  private var workspace = ReductionWorkspace()
  private var tookWorkspace = false
  /// Whether each run's races are also found afresh, from its first step, and compared with
  /// those the race search found from where the run parted from the one before: a check for
  /// tests, whose findings ``incrementalCheck`` counts.
  var checksIncrementalRaces = false
  /// What the check above found: the runs compared, those whose race search went on from a step
  /// after the first, and those where the two searches disagreed.
  private(set) var incrementalCheck = (runs: 0, resumed: 0, mismatches: 0)
  /// In a sharded search, its shard, counting from 0, and how many shards there are.
  private let sharing: (index: Int, count: Int)?
  /// Whether the run just made ended while several slots shared it, and another shard counts it.
  private var runCountedElsewhere = false
  /// In a sharded search, the runs to make to learn the steps of other shards' options, and the
  /// one under way.
  private var foreignProbes: [ForeignOptionProbe] = []
  private var foreignProbe: ForeignOptionProbe?
  /// In a search several searchers share, the tree of their choice points, and how many of this
  /// searcher's path's choice points are in it.
  private let tree: SharedReducedTree?
  private var published = 0
  /// Whether the exploration assumes the tasks share no state the scheduler cannot see: then the
  /// relation drops the guesses at such state (see ``StepAccesses``).
  private var assumesNoUnseenSharing: Bool { probes.counts.assumesNoUnseenSharing }

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
  var exhaustedSchedules: Bool { finished && probes.counts.justified }
  /// Whether the search tried one schedule of every class, justified or not.
  var searchedEveryClass: Bool { finished }
  var canStillClaimEverySchedule: Bool { probes.counts.canStillBeJustified }
  var learnsFromTraces: Bool { true }
  var reductionCheck: ReductionCheck? { probes.check }
  var countedElsewhere: Bool { runCountedElsewhere }

  mutating func beginRun() -> Bool {
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

  private mutating func searchDidEnd() {
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
    stepsThisRun = step + 1
    if foreignProbe != nil { return try foreignProbe!.nextJob(among: ready, step: step) }
    if probes.probing { return try probes.nextJob(among: ready, step: step) }
    guard step < path.count else {
      guard let sharing, let slots = slotsSharingPath else {
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
    if probes.probing, foreignProbe == nil { probes.runDidFinish() } else { finishedRun = true }
  }

  /// Follows the run's sleeping options, and adds the options that reverse its races to the
  /// choice points where they start.
  mutating func runDidEnd(trace: Trace) {
    if let probe = foreignProbe {
      foreignProbe = nil
      runCountedElsewhere = true
      // Kept in the order of the options, so that those before the one taken sleep in it.
      if probe.depth < path.count, let footprint = probe.footprint(trace: trace, finished: finishedRun, assumesNoUnseenSharing: assumesNoUnseenSharing) {
        let explored = path[probe.depth].explored
        path[probe.depth].explored.insert((probe.option, footprint), at: explored.firstIndex { $0.option > probe.option } ?? explored.count)
      }
      return
    }
    if probes.probing {
      probes.probeDidEnd(trace: trace)
      return
    }
    takeWorkspace()
    let steps = min(path.count, stepsThisRun)
    if tree == nil { truncatePath(to: steps) }
    if let slots = slotsSharingPath, let sharing { runCountedElsewhere = !ShardedOptions.slot(slots.lowerBound, isOf: sharing) }
    // A run cut short by a delayed task's reading of the clock was stopped, not stuck.
    let leftWaiting = !finishedRun && trace.cutAtStep == nil
    // The steps this run shares with the one analysed last, whose races and pairs were found then.
    var shared = 0
    while shared < min(steps, workspace.analysed.points.count), path[shared].serial == workspace.analysed.points[shared],
      choices[shared] == workspace.analysed.choices[shared]
    {
      shared += 1
    }
    workspace.analysed.ready.truncate(to: shared)
    for step in shared..<steps { workspace.analysed.ready.append(path[step].ready) }
    let (ready, chosen) = (workspace.analysed.ready, Array(choices[..<steps]))
    // The run's own facts need no choice point's state: they are worked out before the choice
    // points are changed, which in a shared search happens under the tree's lock.
    let facts = workspace.reusableAccesses()
    let filled = facts.fill(
      ready: ready, chosen: chosen, trace: trace, leftWaiting: leftWaiting, assumesNoUnseenSharing: assumesNoUnseenSharing,
      resumingFrom: workspace.racePass.lastAccesses, sharing: shared)
    let races = filled ? workspace.racePass.races(of: facts, sharing: shared) : nil
    // A run too wide to analyse is taken as one that does not fit the model.
    let accesses = races == nil ? nil : facts
    if !filled { workspace.racePass.forget() }
    if checksIncrementalRaces, let accesses, let races {
      // The ready lists kept from run to run, checked against the choice points' own.
      let lists = ReadyLists(path[..<steps].map(\.ready))
      let fresh =
        lists == ready
        ? StepAccesses(ready: lists, chosen: chosen, trace: trace, leftWaiting: leftWaiting, assumesNoUnseenSharing: assumesNoUnseenSharing) : nil
      checkIncrementalRaces(accesses, found: races, freshFacts: fresh)
    }
    let searchesPairs = accesses != nil && trace.cutAtStep == nil
    if let accesses, let races, searchesPairs {
      let from = workspace.analysed.pairsFound ? races.from : 0
      probes.findPairs(in: accesses, order: races.order, ready: ready, chosen: chosen, trace: trace, finished: finishedRun, from: from)
    }
    workspace.analysed.points.removeLast(workspace.analysed.points.count - shared)
    workspace.analysed.choices.removeLast(workspace.analysed.choices.count - shared)
    for step in shared..<steps {
      workspace.analysed.points.append(path[step].serial)
      workspace.analysed.choices.append(choices[step])
    }
    workspace.analysed.pairsFound = searchesPairs
    // A search of its own alone changes its choice points, so the sleeping options at those the
    // run shares with the run before, up to the first step whose facts differ, are as it left them.
    let followFrom = tree == nil && sharing == nil ? races?.from ?? 0 : 0
    // What the update needs, taken out first: a closure that captured the trace or the races
    // would copy them, and their arrays, to release them again.
    let (reversals, cutShort) = (races?.reversals ?? [], trace.cutAtStep != nil)
    let bringFindings = { (path: [Node], choices: [Int]) -> Int? in
      Self.update(path: path, choices: choices, accesses: accesses, reversals: reversals, followingFrom: followFrom, wakingEveryOption: cutShort)
    }
    guard let tree else {
      guard let cut = bringFindings(path, choices) else { return }
      truncatePath(to: cut + 1)
      foreignProbes.removeAll { $0.depth >= path.count }
      return
    }
    tree.endRun(path: &path, choices: &choices, published: &published, steps: steps, update: bringFindings)
  }

  /// Takes the workspace from the spares of the searches before, if this search has not yet.
  private mutating func takeWorkspace() {
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
  private mutating func truncatePath(to depth: Int) {
    while path.count > depth { workspace.letGoLast(of: &path) }
    choices.removeLast(choices.count - depth)
  }

  /// Finds the races of the run whose facts are `accesses` afresh, and counts in
  /// ``incrementalCheck`` whether the race search, which went on from `found.from`, found the
  /// same: the same order of the steps, every race whose later step is from there on, and none
  /// that the fresh search does not find; and whether the facts, filled from where the run parted
  /// from the one before, are `freshFacts`, worked out from the first step and from the choice
  /// points' own ready lists (`nil` when the lists kept from run to run differ from those).
  private mutating func checkIncrementalRaces(
    _ accesses: StepAccesses, found: (reversals: [StepAccesses.Reversal], order: HappensBefore, from: Int), freshFacts: StepAccesses?
  ) {
    var fresh = RacePass()
    incrementalCheck.runs += 1
    guard let all = fresh.races(of: accesses, sharing: 0) else {
      incrementalCheck.mismatches += 1
      return
    }
    let steps = accesses.threads.count
    let sameOrder = (0..<steps).allSatisfy { b in (0..<steps).allSatisfy { a in all.order.precedes(a, b) == found.order.precedes(a, b) } }
    let sameRaces =
      all.reversals.allSatisfy { $0.later < found.from || found.reversals.contains($0) } && found.reversals.allSatisfy(all.reversals.contains)
    if found.from > 0 { incrementalCheck.resumed += 1 }
    let sameFacts = freshFacts.map(accesses.hasSameFacts) ?? false
    if !sameOrder || !sameRaces || !sameFacts { incrementalCheck.mismatches += 1 }
  }

  /// Brings the run's findings to the choice points of its path: follows its sleeping options,
  /// and adds an option that reverses each of its races where none is covered; returns the choice
  /// point where the run took an option asleep, if it did, whose subtree is then redundant, with
  /// an awake option added to try instead. Without `accesses`, the run did not fit the model, and
  /// every option of every choice point of it is tried.
  private static func update(
    path: [Node], choices: [Int], accesses: StepAccesses?, reversals: [StepAccesses.Reversal], followingFrom start: Int, wakingEveryOption: Bool
  ) -> Int? {
    guard let accesses else {
      for node in path where node.sharing == nil {
        node.toTry = PositionSet(node.ready.indices.filter { !node.tried.contains($0) })
      }
      return nil
    }
    // Each choice point up to the cut, if any, keeps the options asleep there in this run.
    let cutAt = followSleepingOptions(accesses, path: path, choices: choices, from: start, wakingEveryOption: wakingEveryOption)
    // A choice point several slots share tries every option already, each in its shard.
    for reversal in reversals where reversal.later < (cutAt ?? path.count) && path[reversal.step].sharing == nil {
      let node = path[reversal.step]
      if reversal.everyOption {
        for option in reversal.options where !node.tried.contains(option) { node.toTry.insert(option) }
        continue
      }
      let covered = reversal.options.contains {
        node.tried.contains($0) || node.toTry.contains($0) || node.isAsleep($0, among: node.sleeping)
      }
      if !covered { node.toTry.insert(reversal.best) }
    }
    guard let cut = cutAt else { return nil }
    let node = path[cut]
    if node.sharing == nil, let awake = node.ready.indices.first(where: { !node.tried.contains($0) && !node.toTry.contains($0) && !node.isAsleep($0, among: node.sleeping) }) {
      node.toTry.insert(awake)
    }
    return cut
  }

  /// In a sharded search, the slots whose schedules pass through the current path, if that is
  /// more than one (see ``ShardedOptions``).
  private var slotsSharingPath: Range<Int>? {
    guard let sharing else { return nil }
    guard let last = path.last else { return ShardedOptions.allSlots(shards: sharing.count) }
    guard let below = last.sharing?.group(belowOption: choices[path.count - 1]), below.count > 1 else { return nil }
    return below
  }

  /// Walks the run's choice points, keeping at each the options asleep there and the footprint of
  /// each option explored (all that its step touched in every run that took it, see
  /// ``StepFootprint/absorb(_:)``), and returns the first where the run took one
  /// asleep, if any. The first `start` choice points are taken as the run before left them: the
  /// same options asleep, none taken.
  ///
  /// With `wakingEveryOption`, each step of the run wakes every option asleep: the run was cut
  /// short (``Trace/cutAtStep``), and a step's facts may depend on later steps it never reached
  /// (a hop touches the actor whose job runs later), which may also shift the names of the actors
  /// its steps touch first (see ``StepAccesses``). Its steps are then taken to depend on every
  /// option, which tries more but keeps asleep none that should wake.
  private static func followSleepingOptions(
    _ accesses: StepAccesses, path: [Node], choices: [Int], from start: Int, wakingEveryOption: Bool
  ) -> Int? {
    let start = min(start, path.count)
    var sleeping = start < path.count ? path[start].sleeping : []
    for (index, node) in path.enumerated().dropFirst(start) {
      let chosen = choices[index]
      // Copied into the choice point's own list (the first one's is the list already): one that
      // shared the list below would have it copied whole at its next change.
      if index != start {
        node.sleeping.removeAll(keepingCapacity: true)
        node.sleeping.append(contentsOf: sleeping)
      }
      if node.isAsleep(chosen, among: sleeping) { return index }
      let step = accesses.footprint(ofStep: index, job: node.ready[chosen])
      // At a shared choice point the options explored are kept in order, other shards' among them.
      let position =
        node.explored.firstIndex { $0.option == chosen }
        ?? (node.sharing == nil ? nil : node.explored.firstIndex { $0.option > chosen }) ?? node.explored.count
      if !node.explored.indices.contains(position) || node.explored[position].option != chosen {
        node.explored.insert((chosen, step), at: position)
      } else {
        node.explored[position].footprint.absorb(step)
      }
      for explored in node.explored[..<position] { sleeping.append(explored.footprint) }
      if wakingEveryOption {
        sleeping.removeAll(keepingCapacity: true)
      } else if sleeping.contains(where: { $0.conflicts(with: step) }) {
        sleeping.removeAll { $0.conflicts(with: step) }
      }
    }
    return nil
  }
}

