import EffectScheduler
import Explore
import Testing

/// A step that starts a task and then cancels it, with no suspension between: on real threads the
/// task may start between the two and find itself not cancelled; no schedule has that order, so
/// the exploration says so and claims no more than it tried.
@Suite("A task cancelled by the step that made it ready")
struct CancelledWhereMadeReadyTests {
  /// Whether each run's child found itself cancelled.
  typealias Seen = Collected<Bool>

  @Test("is named, and no strategy claims every schedule", arguments: ClaimingStrategies.names)
  func named(strategyName: String) async throws {
    let seen = Seen()
    let summary = try await explore(ClaimingStrategies.named(strategyName), configuration: ClaimingStrategies.configuration) {
      let child = Task { Task.isCancelled }
      child.cancel()
      seen.add(await child.value)
    }
    #expect(seen.all == [true])
    #expect(!summary.exploredEverySchedule)
    #expect(summary.unexplored?.hasPrefix("step 0 made task #1 unstructured ready, then cancelled it") == true, "\(summary)")
    #expect(summary.description.contains("an order no schedule has, so not every schedule was explored"))
  }

  @Test("with a suspension between, both orders are explored and the claim stands")
  func suspensionBetween() async throws {
    let seen = Seen()
    let summary = try await explore(.exhaustive, configuration: ExploreConfiguration(progressInterval: nil)) {
      let child = Task { Task.isCancelled }
      await Task.yield()
      child.cancel()
      seen.add(await child.value)
    }
    #expect(seen.all == [true, false])
    #expect(summary.exploredEverySchedule)
    #expect(summary.unexplored == nil)
  }
}
