/// The timers due at one step where the timer choice offered (``ReadyJob/timer``) was one due
/// already: those set for the clock's instant and still pending, the one offered first. Timers
/// due at the same instant fire in the order they were set, so these are a stretch of that
/// order: the ones numbered `timers` among those the run set for `deadline` (see
/// ``Trace/timersSet``), kept as a range so that a step costs the same however many are due.
package struct DueTimerOffer: Hashable, Sendable {
  /// The step.
  package let step: Int
  /// The instant the timers are due at: the clock's, at the step.
  package let deadline: Duration
  /// The positions of the timers due, among those the run set for `deadline`, in the order set.
  package let timers: Range<Int>

  package init(step: Int, deadline: Duration, timers: Range<Int>) {
    self.step = step
    self.deadline = deadline
    self.timers = timers
  }
}
