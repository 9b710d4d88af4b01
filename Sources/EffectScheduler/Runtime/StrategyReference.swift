/// A strategy borrowed for one or more runs: how the drive loop calls the strategy of the run under
/// way without copying it, boxing it or knowing its type.
///
/// A search makes one reference for all its runs, so a run costs no closures of its own.
package struct StrategyReference {
  @usableFromInline let nextJob: ([ReadyJob], Int) throws -> Int
  @usableFromInline let runDidFinish: (Int) throws -> Void

  /// Calls through `strategy`, which must stay where it is for as long as the reference is used.
  /// Inlinable, so a caller that knows the strategy's type calls it directly.
  @inlinable package init(_ strategy: UnsafeMutablePointer<some SchedulingStrategy>) {
    nextJob = { ready, step in try strategy.pointee.nextJob(among: ready, step: step) }
    runDidFinish = { steps in try strategy.pointee.runDidFinish(steps: steps) }
  }
}
