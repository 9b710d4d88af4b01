@testable import Debounce
import Effects
import Explore
import ExploreTesting
@testable import RandomNumbers
import Testing

@Suite("The RandomNumbers and Debounce examples")
struct ExamplesTests {
  static let quiet = ExploreConfiguration(progressInterval: nil)

  @Test("explore finds the stale random number; the view model that cancels passes every schedule")
  func randomNumbers() async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: Self.quiet, userChangesRange(cancelsStaleRequests: false))
    }
    #expect(failure.underlyingError is StaleNumber)
    // The main actor runs its jobs in arrival order, so the second request overtakes the first
    // only if the first is preempted off the main actor once.
    #expect(failure.preemptions?.reported == 1)
    let summary = try await explore(.exhaustive, configuration: Self.quiet, userChangesRange(cancelsStaleRequests: true))
    #expect(summary.exploredEverySchedule)
  }

  @Test("a script answers each fetch of the main-actor view model")
  @MainActor
  func randomNumbersScript() async throws {
    let model = RandomNumberViewModel(cancelsStaleRequests: true)
    try await withTestHandler { @MainActor in
      let first = model.getRandomNumber(in: 0...10)
      await model.getRandomNumber(in: 100...200).value
      await first.value
    } test: { effect in
      try await effect.expect(RandomNumber.fetch) { range in
        #expect(range == 0...10)
        return 3
      }
      #expect(model.message == "")
      try await effect.expect(RandomNumber.fetch, return: 150)
      #expect(model.message == "150 is a good number")
    }
  }

  @Test("explore finds the stale search results on the virtual clock; the fixed field passes")
  func debounce() async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: Self.quiet, typeSW(dropsAnswersOfCancelledSearches: false))
    }
    #expect(failure.underlyingError is StaleResults)
    #expect(failure.trace?.clockAdvances.map(\.time) == [.milliseconds(300), .milliseconds(600), .milliseconds(700), .milliseconds(800)])
    let summary = try await explore(.exhaustive, configuration: Self.quiet, typeSW(dropsAnswersOfCancelledSearches: true))
    #expect(summary.claimsEverySchedule(assuming: [.timedWorkRanOnTime]))
  }
}
