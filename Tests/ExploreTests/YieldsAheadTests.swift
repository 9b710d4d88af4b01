import BugCatalogue
import Explore
import ExploreTesting
import Testing

/// Settings a loader initializes after one yield of its own.
private actor Settings {
  private(set) var endpoint: String?
  func load() async {
    await Task.yield()
    endpoint = "https://example.com"
  }
}

/// Bugs that need one task to get several yields ahead of another: the fairness rule must not
/// hold the yielding task back before it gets there.
@Suite("Bugs that need a task several yields ahead of another")
struct YieldsAheadTests {
  static let configuration = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil))

  static let strategies: [ExplorationStrategy] = [
    .exhaustive, .reduced(), .default, .pct(schedules: 200), .random(schedules: 200), .preemptionBounded(2),
  ]

  @Test("a reader started after five yields of the root reads before the loader has written, under every strategy",
    arguments: strategies)
  func readerAfterFiveYields(strategy: ExplorationStrategy) async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(strategy, configuration: Self.configuration) {
        let settings = Settings()
        let loader = Task { await settings.load() }
        for _ in 0..<5 { await Task.yield() }
        let reader = Task { await settings.endpoint }
        try check(await reader.value != nil, "the reader saw no endpoint")
        await loader.value
      }
    }
    #expect(failure.summary.contains("the reader saw no endpoint"), "\(failure.summary)")
  }

  @Test("three philosophers started two yields apart still deadlock when each reaches left first")
  func philosophersStartedApart() async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: .deadlocking) {
        let forks = (0..<3).map { _ in AsyncLock() }
        var philosophers: [Task<Void, Never>] = []
        for seat in 0..<3 {
          philosophers.append(
            Task {
              await forks[seat].lock()
              await Task.yield()
              await forks[(seat + 1) % 3].lock()
              await forks[(seat + 1) % 3].unlock()
              await forks[seat].unlock()
            })
          await Task.yield()
          await Task.yield()
        }
        for philosopher in philosophers { await philosopher.value }
      }
    }
    #expect(failure.summary.contains("deadlock"), "\(failure.summary)")
  }
}
