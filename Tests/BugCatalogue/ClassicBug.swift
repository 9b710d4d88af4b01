import Explore

/// A schedule-dependent bug written as ordinary Swift async code, with a fixed twin that must pass
/// under every schedule.
public struct ClassicBug: Sendable, CustomStringConvertible {
  public typealias Program = @Sendable () async throws -> Void
  /// A program that creates its unstructured tasks the way its argument says.
  public typealias Scenario = @Sendable (Spawn) async throws -> Void

  /// What goes wrong, in a few words.
  public let name: String
  private let buggyScenario: Scenario
  private let fixedScenario: Scenario
  /// Random schedules within which the default seed finds the bug.
  public let randomBudget: Int
  /// PCT (depth 3) schedules within which the default seed finds the bug.
  public let pctBudget: Int
  /// The most schedules an exhaustive search of either program may run, for programs with too
  /// many schedules to try them all in a unit test; `nil` for every schedule.
  public let exhaustiveLimit: Int?
  /// Deadlocking bugs wait a little for the outside world before they are reported.
  public var configuration: ExploreConfiguration

  /// The bug's name.
  public var description: String { name }

  init(
    name: String, buggy: @escaping Scenario, fixed: @escaping Scenario, randomBudget: Int, pctBudget: Int,
    exhaustiveLimit: Int? = nil, configuration: ExploreConfiguration = ExploreConfiguration(progressInterval: nil)
  ) {
    self.name = name
    self.buggyScenario = buggy
    self.fixedScenario = fixed
    self.randomBudget = randomBudget
    self.pctBudget = pctBudget
    self.exhaustiveLimit = exhaustiveLimit
    self.configuration = configuration
  }

  /// Exhaustive search, stopping at ``exhaustiveLimit`` schedules.
  public var exhaustive: ExplorationStrategy { .exhaustive(maxSchedules: exhaustiveLimit) }

  /// Whether an exhaustive search of the fixed twin that passed went as far as it should: through
  /// every schedule, or up to the limit.
  public func searchedEnough(_ summary: ExplorationSummary) -> Bool {
    summary.exploredEverySchedule || summary.schedules == exhaustiveLimit || Self.searchedAllItCould(summary)
  }

  /// Whether an exploration that finished claims every schedule, given the assumptions it names
  /// (``ExplorationClaim``), but for what it names as in no schedule, such as a task that a step
  /// made ready and then cancelled, which on real threads may start between the two
  /// (``ExplorationSummary/unexplored``).
  public static func searchedAllItCould(_ summary: ExplorationSummary) -> Bool {
    summary.claim.coversEverySchedule || summary.unexplored != nil && summary.budgetRanOut == nil
  }

  /// The buggy program, spawning with `Task.effect`.
  public var buggy: Program { buggy(spawning: .effect) }
  /// The fixed twin, spawning with `Task.effect`.
  public var fixed: Program { fixed(spawning: .effect) }

  /// The buggy program, spawning its tasks the way `spawn` says.
  public func buggy(spawning spawn: Spawn) -> Program {
    { [buggyScenario] in try await buggyScenario(spawn) }
  }

  /// The fixed twin, spawning its tasks the way `spawn` says.
  public func fixed(spawning spawn: Spawn) -> Program {
    { [fixedScenario] in try await fixedScenario(spawn) }
  }

  /// Every bug of the catalogue.
  public static let all: [ClassicBug] = [
    .lostUpdate, .checkThenAct, .orderViolation, .prematureCheck, .lockOrderDeadlock,
    .lostWakeup, .cancellationRace, .staleSearchResponse, .streamProducerConsumer, .checkBeforeActorHop,
    .diningPhilosophers3, .diningPhilosophers5, .depthThreeOrdering, .atomicLostUpdate, .synchronousLockOrderDeadlock,
    .lockedCancellationRace,
  ]
}

/// Thrown by a program when its invariant does not hold.
public struct InvariantViolation: Error, CustomStringConvertible {
  /// What does not hold.
  public let description: String
  /// An invariant violation saying what does not hold.
  public init(_ description: String) { self.description = description }
}

/// Throws ``InvariantViolation`` with `message` unless `condition` holds.
public func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
  if !condition { throw InvariantViolation(message()) }
}

extension ExploreConfiguration {
  /// For programs whose bug is a deadlock: a short wait before a deadlock is reported.
  public static let deadlocking: ExploreConfiguration = {
    var configuration = ExploreConfiguration(progressInterval: nil)
    configuration.scheduler.outsideWorldTimeout = .milliseconds(100)
    return configuration
  }()
}
