import EffectScheduler
import Explore
import ExploreTesting
import Testing

/// A step that starts a task and then cancels it, with no suspension between: on real threads the
/// task may start between the two and find itself not cancelled. On 64-bit Linux the program's
/// call to cancel it is a scheduling point (CancelCalls.swift), so both orders are explored;
/// elsewhere no schedule has the first order, and the exploration says so and claims no more than
/// it tried.
@Suite("A task cancelled by the step that made it ready")
struct CancelledWhereMadeReadyTests {
  /// Whether each run's child found itself cancelled.
  typealias Seen = Collected<Bool>

  @Test("is explored running before the cancellation too, and every strategy that claims, claims", arguments: ClaimingStrategies.names)
  func named(strategyName: String) async throws {
    let seen = Seen()
    let summary = try await explore(ClaimingStrategies.named(strategyName), configuration: ClaimingStrategies.configuration) {
      let child = Task { Task.isCancelled }
      child.cancel()
      seen.add(await child.value)
    }
    #if os(Linux) && _pointerBitWidth(_64)
      #expect(Set(seen.all) == [true, false], "\(seen.all)")
      #expect(summary.exploredEverySchedule, "\(summary)")
      #expect(summary.unexplored == nil)
    #else
      #expect(seen.all == [true])
      #expect(!summary.exploredEverySchedule)
      #expect(summary.unexplored?.hasPrefix("step 0 made task #1 unstructured ready, then cancelled it") == true, "\(summary)")
      #expect(summary.description.contains("an order no schedule has, so not every schedule was explored"))
    #endif
  }

  @Test("the task found running first is shown paused at the cancellation in the trace")
  func pauseNamedInTheTrace() async throws {
    #if os(Linux) && _pointerBitWidth(_64)
      let failure = try await requireFailure(ExplorationFailure.self) {
        try await explore(.exhaustive, configuration: ExploreConfiguration(progressInterval: nil)) {
          let child = Task { Task.isCancelled }
          child.cancel()
          #expect(await child.value, "the child ran before it was cancelled")
        }
      }
      #expect(failure.description.contains("pause before cancelling task #1"), "\(failure)")
    #endif
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
