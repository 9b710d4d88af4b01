// Not part of an article: the reduced search against the exhaustive one on small programs built
// from swift-async-algorithms' own types, unmodified. The exhaustive search must see every outcome
// listed, and the reduced search, wherever it claims every class, exactly those.

import AsyncAlgorithms
import Explore
import Synchronization
import Testing

/// The distinct outcomes the runs of one search report.
private final class Outcomes: Sendable {
  private let values = Mutex<Set<String>>([])

  /// Records one run's outcome.
  func add(_ outcome: String) { _ = values.withLock { $0.insert(outcome) } }

  /// The outcomes recorded so far.
  var all: Set<String> { values.withLock { values in values } }
}

/// Explores `program` exhaustively and reduced, with and without the assumption that its tasks
/// share nothing unseen, and checks what each saw against `expected`: the exhaustive search every
/// outcome, the reduced one, where it claims every class, the same; assuming no unseen sharing
/// (the library keeps its state behind locks the scheduler sees), it must claim it.
private func expectReducedSeesEveryOutcome(
  _ expected: Set<String>, sourceLocation: SourceLocation = #_sourceLocation,
  _ program: @escaping @Sendable (Outcomes) async throws -> Void
) async throws {
  for assuming in [false, true] {
    var configuration = ExploreConfiguration(progressInterval: nil, assumesNoUnseenSharing: assuming)
    configuration.checksDeterminism = false
    let full = Outcomes()
    let fullSummary = try await explore(.exhaustive(maxSchedules: 20_000), configuration: configuration) { try await program(full) }
    // Every schedule, given that the library's critical sections ran whole (its NSLock).
    #expect(fullSummary.claim.coversEverySchedule, "\(fullSummary)", sourceLocation: sourceLocation)
    #expect(full.all == expected, sourceLocation: sourceLocation)
    let reduced = Outcomes()
    let summary = try await explore(.reduced(maxSchedules: 20_000), configuration: configuration) { try await program(reduced) }
    if assuming { #expect(summary.claim.coversEverySchedule, "\(summary)", sourceLocation: sourceLocation) }
    if summary.claim.coversEverySchedule {
      #expect(reduced.all == expected, "missed \(expected.subtracting(reduced.all).sorted()): \(summary)", sourceLocation: sourceLocation)
    }
  }
}

/// Two streams, each fed `firstValues` or `secondValues` and finished by a task of its own, and
/// those tasks.
private func twoProducedStreams(
  _ firstValues: [Int], _ secondValues: [Int]
) -> (first: AsyncStream<Int>, second: AsyncStream<Int>, producers: [Task<Void, Never>]) {
  let (first, firstInput) = AsyncStream.makeStream(of: Int.self)
  let (second, secondInput) = AsyncStream.makeStream(of: Int.self)
  let producers = [(firstInput, firstValues), (secondInput, secondValues)].map { input, values in
    Task {
      for value in values { input.yield(value) }
      input.finish()
    }
  }
  return (first, second, producers)
}

@Suite struct ReducedOnAsyncAlgorithms {
  @Test func anAsyncChannelFromTwoSenders() async throws {
    try await expectReducedSeesEveryOutcome(["[1, 2]", "[2, 1]"]) { outcomes in
      let channel = AsyncChannel<Int>()
      let first = Task { await channel.send(1) }
      let second = Task { await channel.send(2) }
      var received: [Int] = []
      for await value in channel {
        received.append(value)
        if received.count == 2 { break }
      }
      await first.value
      await second.value
      outcomes.add("\(received)")
    }
  }

  @Test func anAsyncChannelFinishedWhileASenderWaits() async throws {
    try await expectReducedSeesEveryOutcome(["[1]", "[]"]) { outcomes in
      let channel = AsyncChannel<Int>()
      let sender = Task { await channel.send(1) }
      let finisher = Task { channel.finish() }
      var received: [Int] = []
      for await value in channel { received.append(value) }
      await sender.value
      await finisher.value
      outcomes.add("\(received)")
    }
  }

  @Test func anAsyncThrowingChannelFailedWhileASenderWaits() async throws {
    try await expectReducedSeesEveryOutcome(["[1, error]", "[error]"]) { outcomes in
      struct Failure: Error {}
      let channel = AsyncThrowingChannel<Int, any Error>()
      let sender = Task { await channel.send(1) }
      let failing = Task { channel.fail(Failure()) }
      var received: [String] = []
      do {
        for try await value in channel { received.append("\(value)") }
      } catch {
        received.append("error")
      }
      await failing.value
      sender.cancel()
      await sender.value
      outcomes.add("[\(received.joined(separator: ", "))]")
    }
  }

  @Test func anAsyncChannelsConsumerCancelledWhileItReceives() async throws {
    try await expectReducedSeesEveryOutcome(["[1, 2]", "[1]", "[]"]) { outcomes in
      let channel = AsyncChannel<Int>()
      let consumer = Task {
        var received: [Int] = []
        for await value in channel { received.append(value) }
        return received
      }
      let sender = Task {
        await channel.send(1)
        await channel.send(2)
      }
      let canceller = Task { consumer.cancel() }
      await canceller.value
      let received = await consumer.value
      channel.finish()
      await sender.value
      outcomes.add("\(received)")
    }
  }

  @Test func mergedStreamsFromTwoProducers() async throws {
    try await expectReducedSeesEveryOutcome(["[1, 2]", "[2, 1]"]) { outcomes in
      let (first, second, producers) = twoProducedStreams([1], [2])
      var received: [Int] = []
      for await value in merge(first, second) { received.append(value) }
      for producer in producers { await producer.value }
      outcomes.add("\(received)")
    }
  }

  @Test func combineLatestOfTwoStreams() async throws {
    try await expectReducedSeesEveryOutcome(["[1·10, 2·10]", "[2·10]"]) { outcomes in
      let (first, second, producers) = twoProducedStreams([1, 2], [10])
      var received: [String] = []
      for await (left, right) in combineLatest(first, second) { received.append("\(left)·\(right)") }
      for producer in producers { await producer.value }
      outcomes.add("[\(received.joined(separator: ", "))]")
    }
  }
}
