import EffectScheduler

/// Runs one recorded schedule, failing at the first step where the program no longer fits it.
struct ReplaySearch: ExplorationSearch {
  private var strategy: ReplayStrategy
  private var ran = false

  init(_ schedule: Schedule) { strategy = ReplayStrategy(schedule) }

  mutating func beginRun() -> Bool {
    defer { ran = true }
    return !ran
  }

  mutating func nextJob(among ready: [ReadyJob], step: Int) throws -> Int {
    try strategy.nextJob(among: ready, step: step)
  }

  mutating func runDidFinish(steps: Int) throws { try strategy.runDidFinish(steps: steps) }
}
