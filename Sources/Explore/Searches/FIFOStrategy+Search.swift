import EffectScheduler

/// The first-in-first-out schedule as a search, so that a single run of it, such as the run PCT
/// makes first to measure how many steps a run takes, can have its preemptions counted.
extension FIFOStrategy: ExplorationSearch {
  /// Always ready for one more run of the same schedule.
  func beginRun() -> Bool { true }
}
