import EffectScheduler

/// Runs a fixed number of schedules, each picking ready jobs uniformly at random from its own seed.
///
/// The first run uses the base seed itself, so `.random(schedules: 1, seed: s)` replays the run
/// a report names by its seed `s`.
struct RandomOracle: ExplorationOracle {
  private let schedules: Int
  private let baseSeed: UInt64
  private var seeds: SeededGenerator
  private var runs = 0
  private var strategy: RandomStrategy

  init(schedules: Int, seed: UInt64) {
    self.schedules = schedules
    baseSeed = seed
    seeds = SeededGenerator(seed: seed)
    strategy = RandomStrategy(seed: seed)
  }

  var seed: UInt64? { strategy.seed }

  mutating func beginRun() -> Bool {
    guard runs < schedules else { return false }
    strategy = RandomStrategy(seed: runs == 0 ? baseSeed : seeds.next())
    runs += 1
    return true
  }

  mutating func nextJob(among ready: [ReadyJob], step: Int) -> Int {
    strategy.nextJob(among: ready, step: step)
  }
}
