extension DeterministicScheduler {
  /// The calls the drive loop makes to the strategy of the run under way.
  struct Strategy {
    let nextJob: ([ReadyJob], Int) throws -> Int
    let runDidFinish: (Int) throws -> Void

    /// Calls through `strategy`, which must outlive the run.
    init(_ strategy: UnsafeMutablePointer<some SchedulingStrategy>) {
      nextJob = { ready, step in try strategy.pointee.nextJob(among: ready, step: step) }
      runDidFinish = { steps in try strategy.pointee.runDidFinish(steps: steps) }
    }
  }
}
