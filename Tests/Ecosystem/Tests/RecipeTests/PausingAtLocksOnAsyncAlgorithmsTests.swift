// Not part of an article: swift-async-algorithms' `AsyncChannel`, unmodified, keeps its state
// behind a lock the scheduler does not control, and a consumer's step takes it twice. Only where
// each acquire of that lock is a scheduling point (`SchedulerConfiguration.pausesAtUncontrolledLocks`)
// do the schedules include a second consumer taking it in between, as real threads may, and each
// consumer getting one element.

import AsyncAlgorithms
import Explore
import Synchronization
import Testing

/// Two consumers of one channel, fed 1 and 2 by the caller, which then finishes it; `record` gets
/// what each consumer received, `[1] [2]` say.
private func twoConsumers(recording record: @Sendable (String) -> Void) async {
  let channel = AsyncChannel<Int>()
  let consumers = (0..<2).map { _ in
    Task {
      var received: [Int] = []
      for await value in channel { received.append(value) }
      return received
    }
  }
  await channel.send(1)
  await channel.send(2)
  channel.finish()
  let first = await consumers[0].value
  let second = await consumers[1].value
  record("\(first) \(second)")
}

/// The distinct outcomes of the runs of an exhaustive search of two consumers of one channel, fed
/// 1 and 2 by the root, and its summary.
private func twoConsumersOutcomes(_ strategy: ExplorationStrategy, pausing: Bool, assuming: Bool = false) async throws -> (outcomes: Set<String>, summary: ExplorationSummary) {
  var configuration = ExploreConfiguration(progressInterval: nil, assumesNoUnseenSharing: assuming)
  configuration.scheduler.pausesAtUncontrolledLocks = pausing
  let outcomes = Mutex<Set<String>>([])
  let summary = try await explore(strategy, configuration: configuration) {
    await twoConsumers { outcome in _ = outcomes.withLock { $0.insert(outcome) } }
  }
  return (outcomes.withLock { $0 }, summary)
}

@Suite struct PausingAtLocksOnAsyncAlgorithms {
  @Test func twoConsumersOfAnAsyncChannel() async throws {
    let plain = try await twoConsumersOutcomes(.exhaustive, pausing: false)
    #expect(plain.summary.claim.coversEverySchedule, "\(plain.summary)")
    #if os(Linux) && _pointerBitWidth(_64)
      // The claim's assumption, and its warning, are the only sign of the outcomes missed.
      #expect(plain.summary.claim.assumptions == [.uncontrolledLocksRanWhole], "\(plain.summary)")
      #expect(!plain.summary.exploredEverySchedule, "\(plain.summary)")
      #expect(!plain.outcomes.contains("[1] [2]"), "\(plain.outcomes.sorted())")
      // Each acquire a scheduling point, the space is too large to search in full (an exhaustive
      // search passes 50,000 schedules): a random search finds the orders missed, as PCT does.
      let pausing = try await twoConsumersOutcomes(.random(schedules: 1_000), pausing: true)
      #expect(pausing.outcomes.isSuperset(of: plain.outcomes), "\(pausing.outcomes.sorted())")
      #expect(pausing.outcomes.isSuperset(of: ["[1] [2]", "[2] [1]"]), "\(pausing.outcomes.sorted()): \(pausing.summary)")
    #endif
  }

  /// The default portfolio, once the schedules that run the channel's critical sections whole
  /// have passed, explores again pausing between them: the outcome they miss is among its runs.
  @Test func theDefaultPortfolioSplitsTheChannelsCriticalSections() async throws {
    #if os(Linux) && _pointerBitWidth(_64)
      let outcomes = Mutex<Set<String>>([])
      let summary = try await explore(.default, configuration: ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil, schedules: 3_000))) {
        await twoConsumers { outcome in _ = outcomes.withLock { $0.insert(outcome) } }
      }
      let seen = outcomes.withLock { $0 }
      #expect(seen.isSuperset(of: ["[1] [2]", "[2] [1]"]), "\(seen.sorted()): \(summary)")
      #expect(summary.portfolioParts.contains { $0.splitsCriticalSections }, "\(summary)")
      print(summary)
    #endif
  }
}
