import EffectScheduler

/// The seeds of a random or PCT search's runs, in order: the base seed itself for the first run,
/// so that `schedules: 1` with a seed a report names replays that run, then the draws of a
/// generator seeded with it. A shard `i` of `n` takes the runs numbered `i`, `i + n`, … of that
/// sequence, so the shards together run the runs of the unsharded search once each.
struct RunSeeds {
  private let base: UInt64
  private var draws: SeededGenerator
  /// How many runs the whole search makes, all shards together.
  private let schedules: Int
  private let stride: Int
  /// The number of this shard's next run, counting every shard's runs from 0.
  private var next: Int
  /// How many of the runs before `next` drew their seed.
  private var drawn = 0

  init(seed: UInt64, schedules: Int, shard: Shard?) {
    base = seed
    draws = SeededGenerator(seed: seed)
    self.schedules = schedules
    stride = shard?.count ?? 1
    next = (shard?.index ?? 1) - 1
  }

  /// The seed of this shard's next run, or `nil` when it has run all of its share.
  mutating func nextSeed() -> UInt64? {
    guard next < schedules else { return nil }
    let run = next
    next = run.addingReportingOverflow(stride).overflow ? .max : run + stride
    guard run > 0 else { return base }
    // Other shards' runs draw their seeds from the same generator.
    while drawn < run - 1 {
      _ = draws.next()
      drawn += 1
    }
    drawn += 1
    return draws.next()
  }
}
