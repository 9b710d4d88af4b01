import EffectScheduler

/// What one step of a run touched, kept with the option that ran it at its choice point: while
/// that option sleeps in later runs, it is compared with the steps they take instead.
struct StepFootprint {
  /// The ready job the step ran.
  let job: ReadyJob
  private(set) var objects: ObjectSet
  private(set) var touchesEverything: Bool
  /// Whether the step ran a task's code outside any actor.
  private(set) var outsideActors: Bool
  /// Whether the step fired a timer early, and whether it affects one (``StepAccesses/affectsTimer``).
  /// A timer fired when due is told by what it touches.
  private(set) var firesTimer: Bool
  private(set) var affectsTimer: Bool
  /// What the step read and wrote, where its run's memory was followed.
  private(set) var memory: MemoryFootprint?

  /// Whether the two steps may not commute: this one, asleep, and `other`, step `step` of the
  /// run under way, whose touches of memory are `memory`. A run that ended stuck makes every step
  /// outside actors touch what every task may share (`.outsideActors(nil)`); a step kept from
  /// another run may not say so, so that is checked on its own. Where one run's memory was
  /// followed and the other's was not, what the other shared is unseen: they may not commute.
  func conflicts(with other: StepFootprint, step: Int, memory: StepMemory) -> Bool {
    if touchesEverything || other.touchesEverything { return true }
    if firesTimer && other.affectsTimer || other.firesTimer && affectsTimer { return true }
    let everyTask = StepAccesses.Object.outsideActors(nil)
    if outsideActors && other.objects.contains(everyTask) || other.outsideActors && objects.contains(everyTask) { return true }
    if !objects.isDisjoint(with: other.objects) { return true }
    switch (self.memory, memory.followed) {
    case (nil, false): return false
    case (let footprint?, true): return footprint.meets(step: step, of: memory)
    default: return true
    }
  }

  /// Adds what `other`, the same step seen in another run, touched there: a step's facts may
  /// depend on later steps (a hop touches the actor whose job runs later, which a run cut before
  /// it never sees), so an option explored at a choice point keeps, while it sleeps, all that its
  /// step touched in every run that took it. Most often it adds nothing, and writes nothing.
  mutating func absorb(_ other: StepFootprint) {
    guard !other.objects.isSubset(of: objects) || other.touchesEverything && !touchesEverything
      || other.outsideActors && !outsideActors || other.firesTimer && !firesTimer || other.affectsTimer && !affectsTimer
      || other.memory != memory
    else { return }
    switch (memory, other.memory) {
    case (var footprint?, let seen?):
      footprint.absorb(seen)
      memory = footprint
    case (nil, nil): break
    // Seen with its memory followed in one run and not in the other: what it shares is unseen.
    default: touchesEverything = true
    }
    objects.formUnion(other.objects)
    touchesEverything = touchesEverything || other.touchesEverything
    outsideActors = outsideActors || other.outsideActors
    firesTimer = firesTimer || other.firesTimer
    affectsTimer = affectsTimer || other.affectsTimer
  }
}

extension StepAccesses {
  /// The footprint of `step`, which ran `job`.
  func footprint(ofStep step: Int, job: ReadyJob) -> StepFootprint {
    StepFootprint(
      job: job, objects: objects[step], touchesEverything: touchesEverything[step], outsideActors: outsideActors[step],
      firesTimer: firesEarlyTimer[step], affectsTimer: affectsTimer[step], memory: memory.followed ? MemoryFootprint(step: step, of: memory) : nil)
  }
}
