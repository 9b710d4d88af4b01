/// One part of the default portfolio (``ExplorationStrategy/default``): the reduced search (and,
/// when it cannot justify what it took as independent, the exhaustive search) and the preemption
/// bounds 0, 1 and 2 run one after another, then PCT and random take turns run by run.
public enum PortfolioPart: Hashable, Sendable, CustomStringConvertible {
  /// Depth-first search with partial-order reduction (``ExplorationStrategy/reduced(maxSchedules:)``),
  /// from the first-in-first-out schedule on: one schedule of every class of equivalent ones.
  case reduced
  /// Exhaustive depth-first search, from the first-in-first-out schedule on.
  case exhaustive
  /// The schedules with exactly this many preemptions, depth first. On its way the search runs
  /// schedules with fewer again, uncounted; a failure among them is reported all the same, since
  /// the parts before may have stopped short of it.
  case preemptionBound(Int)
  /// PCT runs of this depth.
  case pct(depth: Int)
  /// Uniformly random runs.
  case random

  /// `reduced DFS`, `exhaustive DFS`, `preemption bound 2`, `PCT depth 3` or `random`.
  public var description: String {
    switch self {
    case .reduced: "reduced DFS"
    case .exhaustive: "exhaustive DFS"
    case .preemptionBound(let bound): "preemption bound \(bound)"
    case .pct(let depth): "PCT depth \(depth)"
    case .random: "random"
    }
  }
}
