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

  /// Whether the two steps may not commute. A run that ended stuck makes every step outside
  /// actors touch what every task may share (`.outsideActors(nil)`); a step kept from another run
  /// may not say so, so that is checked on its own.
  func conflicts(with other: StepFootprint) -> Bool {
    if touchesEverything || other.touchesEverything { return true }
    if firesTimer && other.affectsTimer || other.firesTimer && affectsTimer { return true }
    let everyTask = StepAccesses.Object.outsideActors(nil)
    if outsideActors && other.objects.contains(everyTask) || other.outsideActors && objects.contains(everyTask) { return true }
    return !objects.isDisjoint(with: other.objects)
  }

  /// Adds what `other`, the same step seen in another run, touched there: a step's facts may
  /// depend on later steps (a hop touches the actor whose job runs later, which a run cut before
  /// it never sees), so an option explored at a choice point keeps, while it sleeps, all that its
  /// step touched in every run that took it. Most often it adds nothing, and writes nothing.
  mutating func absorb(_ other: StepFootprint) {
    guard !other.objects.isSubset(of: objects) || other.touchesEverything && !touchesEverything
      || other.outsideActors && !outsideActors || other.firesTimer && !firesTimer || other.affectsTimer && !affectsTimer
    else { return }
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
      firesTimer: firesEarlyTimer[step], affectsTimer: affectsTimer[step])
  }
}
