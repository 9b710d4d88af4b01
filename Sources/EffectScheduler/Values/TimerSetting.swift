/// A sleep's timer at one step of a run, where the step set it or where it was due and offered
/// as a choice: the step, the sleeping task, and the virtual time it is due at. Timers due at the
/// same instant fire in the order they were set, so two steps that set timers due at the same
/// instant may not commute.
package struct TimerSetting: Hashable, Sendable {
  /// The step.
  package let step: Int
  /// The task whose sleep the timer ends, if the scheduler knows it.
  package let owner: TaskID?
  /// The virtual time the timer is due at, counted from the start of the run.
  package let deadline: Duration

  package init(step: Int, owner: TaskID?, deadline: Duration) {
    self.step = step
    self.owner = owner
    self.deadline = deadline
  }
}
