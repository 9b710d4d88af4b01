/// The knobs of a linearizability check.
///
/// ```swift
/// var configuration = LinearizabilityConfiguration()
/// configuration.scenarios = 20
/// configuration.shape.tasks = 2...2
/// try await checkLinearizability(of: { Counter() }, configuration: configuration) { ops in … }
/// ```
public struct LinearizabilityConfiguration: Sendable {
  /// How many scenarios to generate and explore, at most.
  public var scenarios: Int
  /// How big each scenario is.
  public var shape: ScenarioShape
  /// The seed of the scenarios: the same seed gives the same scenarios.
  public var seed: UInt64
  /// The strategy each scenario is explored with.
  public var strategy: ExplorationStrategy
  /// How each scenario is explored: by default a 100 ms or 300-schedule budget for the default
  /// portfolio, and no progress lines.
  public var exploration: ExploreConfiguration
  /// How long the whole check may take before it stops generating scenarios, `nil` for no limit.
  public var timeBudget: Duration?
  /// How many smaller scenarios may be explored to shrink a failing one. Each is explored within
  /// the portfolio budget's schedules, without its time limit.
  public var shrinkingBudget: Int
  /// A scenario and schedule to run alone, as a report's replay line gives them
  /// (`scenario@schedule`); `nil` to generate scenarios. The `LINEARIZABILITY_REPLAY` variable
  /// the report prints sets it too.
  public var replay: String?

  /// Creates a configuration; the defaults suit unit tests.
  public init(
    scenarios: Int = 100, shape: ScenarioShape = ScenarioShape(), seed: UInt64 = 1, strategy: ExplorationStrategy = .default,
    exploration: ExploreConfiguration = Self.defaultExploration, timeBudget: Duration? = .seconds(30), shrinkingBudget: Int = 100,
    replay: String? = nil
  ) {
    self.scenarios = max(0, scenarios)
    self.shape = shape
    self.seed = seed
    self.strategy = strategy
    self.exploration = exploration
    self.timeBudget = timeBudget
    self.shrinkingBudget = max(0, shrinkingBudget)
    self.replay = replay
  }

  /// Each scenario's exploration: the default portfolio within 100 ms and 300 schedules, a
  /// search for fewer preemptions of at most 300 runs, and no progress lines.
  public static var defaultExploration: ExploreConfiguration {
    ExploreConfiguration(
      progressInterval: nil, minimizationBudget: 300, portfolioBudget: PortfolioBudget(time: .milliseconds(100), schedules: 300))
  }
}

/// What a linearizability check that found no failure did.
public struct LinearizabilitySummary: Sendable, CustomStringConvertible {
  /// How many scenarios were explored.
  public var scenarios: Int
  /// How many schedules were run, over all of them.
  public var schedules: Int
  /// How many of the scenarios had every schedule explored.
  public var scenariosExploredCompletely: Int
  /// How long the check took.
  public var duration: Duration
  /// Whether the time budget ended the check before every scenario asked for was explored.
  public var timeBudgetRanOut: Bool

  /// `100 scenarios (37 explored completely), 12000 schedules, in 4.2 s`.
  public var description: String {
    "\(scenarios) scenarios (\(scenariosExploredCompletely) with every schedule explored), \(schedules) schedules, in \((duration.seconds * 1000).rounded() / 1000) s"
      + (timeBudgetRanOut ? "; the time budget ran out first" : "")
  }
}
