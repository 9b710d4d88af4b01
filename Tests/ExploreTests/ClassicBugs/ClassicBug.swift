import Explore

/// A schedule-dependent bug written as ordinary Swift async code, with a fixed twin that must pass
/// under every schedule.
struct ClassicBug: Sendable, CustomStringConvertible {
  typealias Program = @Sendable () async throws -> Void

  let name: String
  let buggy: Program
  let fixed: Program
  /// Random schedules within which the default seed finds the bug.
  let randomBudget: Int
  /// PCT (depth 3) schedules within which the default seed finds the bug.
  let pctBudget: Int
  /// Deadlocking bugs wait a little for the outside world before they are reported.
  var configuration = ExploreConfiguration(progressInterval: nil)

  var description: String { name }

  static let all: [ClassicBug] = [
    .lostUpdate, .checkThenAct, .orderViolation, .prematureCheck, .lockOrderDeadlock,
    .lostWakeup, .cancellationRace, .staleSearchResponse, .streamProducerConsumer,
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
