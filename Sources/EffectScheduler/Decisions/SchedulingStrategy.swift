/// Decides which ready job a ``DeterministicScheduler`` runs next.
///
/// Every decision of a run is a strategy's: the scheduler runs the program and records what
/// happened, and at each step asks the strategy to pick one of the jobs that could run. It ships
/// ``FIFOStrategy``, ``RandomStrategy`` and ``ReplayStrategy``; the Explore module's searches
/// (exhaustive, reduced, PCT, random) are strategies that also choose from run to run, and an
/// `ExplorationStrategy` names one of them.
///
/// ```swift
/// struct LastInFirstOut: SchedulingStrategy {
///   mutating func nextJob(among ready: [ReadyJob], step: Int) -> Int { ready.count - 1 }
/// }
/// ```
public protocol SchedulingStrategy {
  /// Returns the position in `ready` of the job to run at `step`. `ready` is never empty and lists
  /// the jobs in the order they became ready. From step
  /// ``SchedulerConfiguration/stepsBeforeFairness`` on, it holds only the job ready longest (or a
  /// due timer), which runs whatever the strategy returns.
  ///
  /// - Throws: an error that stops the run, such as ``ReplayDivergence`` when a replayed schedule
  ///   no longer fits the program.
  mutating func nextJob(among ready: [ReadyJob], step: Int) throws -> Int

  /// Called once the run has finished normally after `steps` steps.
  ///
  /// - Throws: an error that fails the run, such as ``ReplayDivergence`` when a replayed schedule
  ///   had steps left over.
  mutating func runDidFinish(steps: Int) throws
}

extension SchedulingStrategy {
  /// Does nothing.
  public mutating func runDidFinish(steps: Int) throws {}
}
