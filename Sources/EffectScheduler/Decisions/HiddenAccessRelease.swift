/// A search's word, during a run that watches hidden accesses
/// (``StrategyReference/watchesHiddenAccesses``), that it will not read them: the run then stops
/// the costliest part of the watch, the look at every live task's cancelled flag after each step.
///
/// A reduced search whose first run grows too wide to analyse says so as it hands the run to a
/// search of every schedule, which reads nothing of the trace (see
/// ReducedDepthFirstSearch+Wide.swift). The run's trace is then no record of what its steps
/// shared, and must not be read as one.
package final class HiddenAccessRelease: @unchecked Sendable {
  /// Whether the search let go of the watch; set on the thread that drives the run, and read there.
  package var isReleased = false

  package init() {}
}
