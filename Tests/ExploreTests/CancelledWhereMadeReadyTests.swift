import EffectScheduler
import Explore
import Synchronization
import Testing

/// A step that starts a task and then cancels it, with no suspension between: on real threads the
/// task may start between the two and find itself not cancelled; no schedule has that order, so
/// the exploration says so and claims no more than it tried.
@Suite("A task cancelled by the step that made it ready")
struct CancelledWhereMadeReadyTests {
  final class Seen: Sendable {
    private let seen = Mutex<Set<Bool>>([])
    func add(_ value: Bool) { _ = seen.withLock { $0.insert(value) } }
    var all: Set<Bool> { seen.withLock { $0 } }
  }

  @Test("is named, and no strategy claims every schedule", arguments: ["exhaustive", "reduced", "default"])
  func named(strategyName: String) async throws {
    let strategy: ExplorationStrategy =
      switch strategyName {
      case "exhaustive": .exhaustive
      case "reduced": .reduced
      default: .default
      }
    var configuration = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil))
    configuration.assumesNoUnseenSharing = true
    let seen = Seen()
    let summary = try await explore(strategy, configuration: configuration) {
      let child = Task { Task.isCancelled }
      child.cancel()
      seen.add(await child.value)
    }
    #expect(seen.all == [true])
    #expect(!summary.exploredEverySchedule)
    #expect(summary.cancelledWhereMadeReady == "step 0 made task #1 unstructured ready, then cancelled it", "\(summary)")
    #expect(summary.description.contains("an order no schedule has"))
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
    #expect(summary.cancelledWhereMadeReady == nil)
  }
}
