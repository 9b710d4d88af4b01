/// Picks a ready job uniformly at random from a seeded generator.
///
/// The same seed picks the same jobs, so a seed is enough to replay a run.
///
/// ```swift
/// let execution = try await DeterministicScheduler.run(strategy: .random(seed: 42)) { … }
/// ```
public struct RandomStrategy: SchedulingStrategy, Sendable {
  /// The seed the generator started from.
  public let seed: UInt64
  private var generator: SeededGenerator

  /// Creates a random strategy seeded with `seed`.
  public init(seed: UInt64) {
    self.seed = seed
    generator = SeededGenerator(seed: seed)
  }

  /// A uniformly random position.
  public mutating func nextJob(among ready: [ReadyJob], step: Int) -> Int {
    generator.below(ready.count)
  }
}

extension SchedulingStrategy where Self == RandomStrategy {
  /// Picks ready jobs at random from a generator seeded with `seed`.
  public static func random(seed: UInt64) -> RandomStrategy { RandomStrategy(seed: seed) }
}
