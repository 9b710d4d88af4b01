import BugCatalogue
import EffectScheduler
import Effects
import Explore
import Synchronization
import Testing

/// What a search screen showed, in order.
private final class Screen: Sendable {
  private let shown = Mutex<[String]>([])
  func show(_ text: String) { shown.withLock { $0.append(text) } }
  var history: [String] { shown.withLock { $0 } }
}

/// A search result arrives on a stream made with `AsyncStream.effect` while the user cancels the
/// search. The buggy display shows whatever the stream delivers; when the result reaches it after
/// the user's step, the screen ends up showing a result the user cancelled. The fixed display
/// looks at cancellation first. Returns what the screen showed.
@discardableResult
private func cancelWhileResultArrives(displayChecksCancellation: Bool) async throws -> [String] {
  let screen = Screen()
  let (results, continuation) = AsyncStream.makeEffectStream("results", of: String.self)
  let display = Task.effect(name: "display") {
    for await result in results {
      if displayChecksCancellation, Task.isCancelled { break }
      screen.show(result)
    }
  }
  let search = Task.effect(name: "search") {
    continuation.yield("3 hits")
    continuation.finish()
  }
  let user = Task.effect(name: "user") {
    display.cancel()
    screen.show("cancelled")
  }
  _ = await (search.value, user.value, display.value)
  try check(screen.history.last == "cancelled", "the screen shows \(screen.history) after the user cancelled")
  return screen.history
}

@Suite("AsyncStream.effect under explore")
struct StreamDeliveryTests {
  @Test("exhaustive search finds the result delivered after the user cancelled")
  func findsLateDelivery() async throws {
    let failure = try await #require(throws: ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: ExploreConfiguration(progressInterval: nil)) {
        try await cancelWhileResultArrives(displayChecksCancellation: false)
      }
    }
    #expect(failure.summary.contains(#"the screen shows ["cancelled", "3 hits"]"#))
    let trace = try #require(failure.trace)
    #expect(trace.tasks.map(\.name) == ["root", "display", "search", "user"])
  }

  @Test("the fixed display passes every schedule, which deliver the result before and after the user's step")
  func fixedPasses() async throws {
    let histories = Mutex<Set<[String]>>([])
    let summary = try await explore(.exhaustive, configuration: ExploreConfiguration(progressInterval: nil)) {
      let history = try await cancelWhileResultArrives(displayChecksCancellation: true)
      histories.withLock { _ = $0.insert(history) }
    }
    #expect(summary.claimsEverySchedule(assuming: [.synchronizationRanWhole]), "\(summary)")
    #expect(histories.withLock { $0 } == [["3 hits", "cancelled"], ["cancelled"]])
  }
}
