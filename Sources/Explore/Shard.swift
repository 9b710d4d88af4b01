/// One of `count` processes that share an exploration, such as the jobs of a CI matrix: each runs
/// its own part of the schedules, and together they run every schedule of the search once.
///
/// ```swift
/// // The second of four jobs; EXPLORE_SHARD=2/4 in the environment does the same.
/// let configuration = ExploreConfiguration(shard: Shard(index: 2, count: 4))
/// try await explore(.exhaustive, configuration: configuration) { … }
/// ```
///
/// Shards need no coordination: each splits the search the same way and takes its part.
/// - An exhaustive or preemption-bounded search splits its tree of choices into 8 slots a shard,
///   slot `v` going to shard `v mod n + 1`. Where a step has a choice between ready jobs, the
///   slots whose schedules pass through it share its options out: round-robin one option each
///   while there are at least as many options as slots, the options left over shared by all of
///   them further down; with fewer options than slots, each option goes to a group of them, which
///   splits again further down. A shard never runs an option none of its slots has a share in. A
///   schedule that ends while several slots still share it belongs to the first slot's shard
///   (shard 1 for a schedule with no choice at all); the other shards with a slot in the group run
///   it too, uncounted, though a failure in it is reported all the same. A schedule limit
///   (`maxSchedules`) applies to each shard on its own.
/// - A reduced search splits its tree into the same slots. A step whose schedules several slots
///   share is not reduced: each shard tries there every option it has a share in, so that the
///   shards together try them all; below, each slot's subtree is searched with the reduction. The
///   shards together try one schedule of every class, and a few more near the top of the tree.
/// - A random or PCT search, and the PCT and random part of the default portfolio, give shard
///   `i` of `n` the runs numbered `i`, `i + n`, `i + 2n`, … of the seed sequence the unsharded
///   search runs, so each run's seed still replays it with `schedules: 1`.
/// - The default portfolio shards its exhaustive and preemption-bounded parts as above, and each
///   shard spends the whole ``ExploreConfiguration/portfolioBudget`` on its own part.
/// - A replay runs its one schedule in every shard: replaying needs no shard.
///
/// A failing schedule a shard finds replays in any process, sharded or not.
public struct Shard: Hashable, Sendable, CustomStringConvertible {
  /// Which shard this is, from 1 to ``count``, as CI matrices count their jobs.
  public var index: Int
  /// How many shards share the exploration.
  public var count: Int

  /// The environment variable that sets the shard of every `explore` call: `EXPLORE_SHARD=2/4`
  /// runs shard 2 of 4. It overrides ``ExploreConfiguration/shard``.
  public static let environmentVariable = "EXPLORE_SHARD"

  /// Shard `index` of `count`, counting from 1. An index outside `1...count`, or a count above a
  /// million, is reported by `explore` as a failure at its call, not here.
  public init(index: Int, count: Int) {
    self.index = index
    self.count = count
  }

  /// `shard 2 of 4`.
  public var description: String { "shard \(index) of \(count)" }

  /// The most shards a search can be split into, far more than machines share one search.
  static let maximumCount = 1_000_000

  /// What is wrong with this shard's numbers, or `nil` when `index` is in `1...count` and `count`
  /// is at most ``maximumCount``.
  var problem: String? {
    if count < 1 { return "the count \(count) is below 1" }
    if count > Self.maximumCount { return "the count \(count) is above \(Self.maximumCount)" }
    if index < 1 { return "the index \(index) is below 1; shards count from 1" }
    if index > count { return "the index \(index) is above the count \(count)" }
    return nil
  }

  /// Reads `i/n`, the form of ``environmentVariable``, whether or not the numbers make a shard
  /// (see ``problem``); `nil` for anything else.
  init?(parsing text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Self.number(parts[0]), let count = Self.number(parts[1]) else { return nil }
    self.init(index: index, count: count)
  }

  /// A run of decimal digits as a number; `nil` for signs, spaces or anything else.
  private static func number(_ text: Substring) -> Int? {
    guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int(text)
  }
}

extension ExplorationStrategy {
  /// The strategy's name, followed, for a shard of a strategy that makes random or PCT runs, by
  /// which of them the shard makes.
  func description(sharedBy shard: Shard?) -> String {
    guard let shard, makesRandomRuns else { return description }
    let runs = (0..<3).map { "\(shard.index + $0 * shard.count)" }.joined(separator: ", ")
    return description + "; \(shard) makes runs \(runs), … of each random or PCT sequence"
  }

  private var makesRandomRuns: Bool {
    switch kind {
    case .random, .pct, .portfolio: true
    case .sequence(let strategies): strategies.contains { $0.makesRandomRuns }
    case .exhaustive, .reduced, .preemptionBounded, .replay: false
    }
  }
}
