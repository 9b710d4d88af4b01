import Explore

/// A schedule-dependent bug written as ordinary Swift async code, with a fixed twin that must pass
/// under every schedule.
struct ClassicBug: Sendable, CustomStringConvertible {
  typealias Program = @Sendable () async throws -> Void
  /// A program that creates its unstructured tasks the way its argument says.
  typealias Scenario = @Sendable (Spawn) async throws -> Void

  let name: String
  private let buggyScenario: Scenario
  private let fixedScenario: Scenario
  /// Random schedules within which the default seed finds the bug.
  let randomBudget: Int
  /// PCT (depth 3) schedules within which the default seed finds the bug.
  let pctBudget: Int
  /// The most schedules an exhaustive search of either program may run, for programs with too
  /// many schedules to try them all in a unit test; `nil` for every schedule.
  let exhaustiveLimit: Int?
  /// Deadlocking bugs wait a little for the outside world before they are reported.
  var configuration: ExploreConfiguration

  var description: String { name }

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
  var exhaustive: ExplorationStrategy { .exhaustive(maxSchedules: exhaustiveLimit) }

  /// Whether an exhaustive search of the fixed twin that passed went as far as it should: through
  /// every schedule, or up to the limit.
  func searchedEnough(_ summary: ExplorationSummary) -> Bool {
    summary.exploredEverySchedule || summary.schedules == exhaustiveLimit
  }

  /// The buggy program, spawning with `Task.effect`.
  var buggy: Program { buggy(spawning: .effect) }
  /// The fixed twin, spawning with `Task.effect`.
  var fixed: Program { fixed(spawning: .effect) }

  /// The buggy program, spawning its tasks the way `spawn` says.
  func buggy(spawning spawn: Spawn) -> Program {
    { [buggyScenario] in try await buggyScenario(spawn) }
  }

  /// The fixed twin, spawning its tasks the way `spawn` says.
  func fixed(spawning spawn: Spawn) -> Program {
    { [fixedScenario] in try await fixedScenario(spawn) }
  }

  static let all: [ClassicBug] = [
    .lostUpdate, .checkThenAct, .orderViolation, .prematureCheck, .lockOrderDeadlock,
    .lostWakeup, .cancellationRace, .staleSearchResponse, .streamProducerConsumer, .checkBeforeActorHop,
    .diningPhilosophers3, .diningPhilosophers5, .depthThreeOrdering,
  ]
}

/// Thrown by a program when its invariant does not hold.
struct InvariantViolation: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Throws ``InvariantViolation`` with `message` unless `condition` holds.
func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
  if !condition { throw InvariantViolation(message()) }
}

extension ExploreConfiguration {
  /// For programs whose bug is a deadlock: a short wait before a deadlock is reported.
  static let deadlocking: ExploreConfiguration = {
    var configuration = ExploreConfiguration(progressInterval: nil)
    configuration.scheduler.outsideWorldTimeout = .milliseconds(100)
    return configuration
  }()
}
