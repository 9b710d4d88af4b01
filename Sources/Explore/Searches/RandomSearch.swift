import EffectScheduler

/// Runs a fixed number of schedules, each picking ready jobs uniformly at random from its own seed.
///
/// The first run uses the base seed itself, so `.random(schedules: 1, seed: s)` replays the run
/// a report names by its seed `s`. A shard runs its share of the runs (see ``RunSeeds``).
struct RandomSearch: ExplorationSearch {
  private var seeds: RunSeeds
  private var strategy: RandomStrategy

  init(schedules: Int, seed: UInt64, shard: Shard? = nil) {
    seeds = RunSeeds(seed: seed, schedules: schedules, shard: shard)
    strategy = RandomStrategy(seed: seed)
  }

  var seed: UInt64? { strategy.seed }

  mutating func beginRun() -> Bool {
    guard let seed = seeds.nextSeed() else { return false }
    strategy = RandomStrategy(seed: seed)
    return true
  }

  mutating func nextJob(among ready: [ReadyJob], step: Int) -> Int {
    strategy.nextJob(among: ready, step: step)
  }
}
