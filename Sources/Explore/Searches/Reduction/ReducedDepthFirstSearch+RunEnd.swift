import EffectScheduler

/// What the search learns from a run once it ends: the options asleep at each choice point, and
/// those that reverse the run's races.
extension ReducedDepthFirstSearch {
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

  /// Finds the races of the run whose facts are `accesses` afresh, and counts in
  /// ``incrementalCheck`` whether the race search, which went on from `found.from`, found the
  /// same: the same order of the steps, every race whose later step is from there on, and none
  /// that the fresh search does not find; and whether the facts, filled from where the run parted
  /// from the one before, are `freshFacts`, worked out from the first step and from the choice
  /// points' own ready lists (`nil` when the lists kept from run to run differ from those).
  mutating func checkIncrementalRaces(
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
  static func update(
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
  static func followSleepingOptions(
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
      } else if sleeping.contains(where: { $0.conflicts(with: step, step: index, memory: accesses.memory) }) {
        sleeping.removeAll { $0.conflicts(with: step, step: index, memory: accesses.memory) }
      }
    }
    return nil
  }
}
