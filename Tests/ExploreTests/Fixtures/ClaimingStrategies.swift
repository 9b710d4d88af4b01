import Explore

/// The strategies that can claim every schedule, by name, for tests that check each one's claim,
/// with a configuration under which each can make it: `.default` counts schedules only, so its
/// verdict does not depend on the machine's speed, and the tasks are taken to share nothing the
/// scheduler cannot see, so that `.reduced` may claim.
enum ClaimingStrategies {
  static let names = ["exhaustive", "reduced", "default"]

  static func named(_ name: String) -> ExplorationStrategy {
    switch name {
    case "exhaustive": .exhaustive
    case "reduced": .reduced
    default: .default
    }
  }

  static var configuration: ExploreConfiguration {
    var configuration = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil))
    configuration.assumesNoUnseenSharing = true
    return configuration
  }
}
