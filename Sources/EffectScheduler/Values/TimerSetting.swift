/// A sleep's timer, set at one step of a run: the step, and the virtual time it is due at.
/// Timers due at the same instant fire in the order they were set, so two steps that set timers
/// due at the same instant may not commute.
package struct TimerSetting: Hashable, Sendable {
  /// The step that set the timer.
  package let step: Int
  /// The virtual time the timer is due at, counted from the start of the run.
  package let deadline: Duration

  package init(step: Int, deadline: Duration) {
    self.step = step
    self.deadline = deadline
  }
}
