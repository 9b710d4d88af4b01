/// How long, and how many schedules, the default portfolio (``ExplorationStrategy/default``) may
/// search before it stops. Set it with ``ExploreConfiguration/portfolioBudget``.
///
/// ```swift
/// // A longer soak than the unit-test default: up to a minute or a million schedules.
/// let soak = ExploreConfiguration(portfolioBudget: PortfolioBudget(time: .seconds(60), schedules: 1_000_000))
/// try await explore(configuration: soak) { … }
/// ```
///
/// The budget bounds the search. Once it has found a failing schedule, the search for one with
/// fewer preemptions runs after it, bounded by ``ExploreConfiguration/minimizationBudget``
/// instead. Time is checked between runs, so a run that waits on the outside world (every
/// deadlocking run waits `SchedulerConfiguration.outsideWorldTimeout`) can carry the search past
/// its time budget by that much. Other strategies ignore this budget: they run the schedule
/// counts they are given.
public struct PortfolioBudget: Hashable, Sendable, CustomStringConvertible {
  /// Which limit of a budget ended a search.
  public enum Limit: Hashable, Sendable, CustomStringConvertible {
    /// The time budget, of the given length, was spent.
    case time(Duration)
    /// The given number of schedules had run.
    case schedules(Int)

    /// `the time budget (2.0 s)` or `the schedule budget (20000 schedules)`.
    public var description: String {
      switch self {
      case .time(let duration): "the time budget (\(duration.seconds) s)"
      case .schedules(let count): "the schedule budget (\(count) schedules)"
      }
    }
  }

  /// The wall-clock time the search may take; `nil` for no time limit, so that which schedules
  /// run depends on ``schedules`` alone and not on the speed of the machine.
  public var time: Duration?
  /// The most schedules the search runs, all parts together.
  public var schedules: Int

  /// Creates a budget; the defaults suit unit tests: at most 2 seconds and 20,000 schedules.
  public init(time: Duration? = .seconds(2), schedules: Int = 20_000) {
    self.time = time.map { max($0, .zero) }
    self.schedules = max(0, schedules)
  }

  /// `2.0 s and 20000 schedules`.
  public var description: String {
    (time.map { "\($0.seconds) s and " } ?? "") + "\(schedules) schedules"
  }
}
