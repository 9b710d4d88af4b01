import BugCatalogue
import EffectScheduler
import Effects
import Explore
import Synchronization
import Testing

/// What the runs of one program ended with.
private final class Outcomes: Sendable {
  private let seen = Mutex<Set<String>>([])
  func record(_ outcome: String) { _ = seen.withLock { $0.insert(outcome) } }
  var all: Set<String> { seen.withLock { $0 } }
}

/// How the producer's `onTermination` saw the stream end, if it has.
private final class Termination: Sendable {
  private let reason = Mutex<String?>(nil)
  func set(_ text: String) { reason.withLock { $0 = $0 ?? text } }
  var value: String { reason.withLock { $0 ?? "-" } }
}

/// How a producer/consumer program ends its stream.
enum StreamEnding: String, CaseIterable, CustomStringConvertible, Sendable {
  /// The producer finishes after its yields.
  case finish
  /// The root cancels the consumer, concurrently with the producer.
  case cancelConsumer
  /// The consumer stops after its first element; the producer finishes.
  case breakEarly
  /// A throwing stream's producer finishes with an error.
  case failure

  var description: String { rawValue }
}

private struct Failed: Error {}

private func describe<Element>(_ result: AsyncStream<Element>.Continuation.YieldResult) -> String {
  switch result {
  case .enqueued(let remaining): "enqueued(\(remaining))"
  case .dropped(let element): "dropped(\(element))"
  case .terminated: "terminated"
  @unknown default: "unknown"
  }
}

private func describe<Element>(_ result: AsyncThrowingStream<Element, any Error>.Continuation.YieldResult) -> String {
  switch result {
  case .enqueued(let remaining): "enqueued(\(remaining))"
  case .dropped(let element): "dropped(\(element))"
  case .terminated: "terminated"
  @unknown default: "unknown"
  }
}

@Suite("AsyncStream.effect behaves like AsyncStream under every schedule")
struct StreamParityTests {
  static let policies: [(String, AsyncStream<Int>.Continuation.BufferingPolicy)] = [
    ("unbounded", .unbounded), ("oldest(1)", .bufferingOldest(1)), ("oldest(2)", .bufferingOldest(2)),
    ("newest(1)", .bufferingNewest(1)), ("newest(2)", .bufferingNewest(2)),
  ]

  /// A producer yields 1, 2 and 3 while a consumer reads; records what each side saw, whether
  /// `onTermination` had run when the consumer's loop ended, and how it ended the stream.
  fileprivate static func program(
    effect: Bool, policy: AsyncStream<Int>.Continuation.BufferingPolicy, ending: StreamEnding, into outcomes: Outcomes
  ) -> @Sendable () async throws -> Void {
    {
      let termination = Termination()
      let (stream, continuation) =
        effect
        ? AsyncStream.makeEffectStream("numbers", of: Int.self, bufferingPolicy: policy)
        : AsyncStream.makeStream(of: Int.self, bufferingPolicy: policy)
      continuation.onTermination = { termination.set("\($0)") }
      let producer = Task.effect(name: "producer") {
        let results = (1...3).map { describe(continuation.yield($0)) }
        if ending != .cancelConsumer { continuation.finish() }
        return results
      }
      let consumer = Task.effect(name: "consumer") { () -> ([Int], String) in
        var received: [Int] = []
        for await number in stream {
          received.append(number)
          if ending == .breakEarly { break }
        }
        return (received, termination.value)
      }
      if ending == .cancelConsumer { consumer.cancel() }
      let yields = await producer.value
      let (received, atLoopEnd) = await consumer.value
      outcomes.record("yields \(yields), received \(received), at the loop's end \(atLoopEnd), then \(termination.value)")
    }
  }

  /// The same with a throwing stream.
  fileprivate static func throwingProgram(
    effect: Bool, policy: AsyncThrowingStream<Int, any Error>.Continuation.BufferingPolicy, ending: StreamEnding, into outcomes: Outcomes
  ) -> @Sendable () async throws -> Void {
    {
      let termination = Termination()
      let (stream, continuation) =
        effect
        ? AsyncThrowingStream.makeEffectStream("numbers", of: Int.self, bufferingPolicy: policy)
        : AsyncThrowingStream.makeStream(of: Int.self, throwing: (any Error).self, bufferingPolicy: policy)
      continuation.onTermination = { termination.set("\($0)".contains("finished") ? "finished" : "cancelled") }
      let producer = Task.effect(name: "producer") {
        let results = (1...3).map { describe(continuation.yield($0)) }
        switch ending {
        case .failure: continuation.finish(throwing: Failed())
        case .cancelConsumer: break
        default: continuation.finish()
        }
        return results
      }
      let consumer = Task.effect(name: "consumer") { () -> ([Int], String, String) in
        var received: [Int] = []
        var failure = "none"
        do {
          for try await number in stream {
            received.append(number)
            if ending == .breakEarly { break }
          }
        } catch {
          failure = "\(type(of: error))"
        }
        return (received, failure, termination.value)
      }
      if ending == .cancelConsumer { consumer.cancel() }
      let yields = await producer.value
      let (received, error, atLoopEnd) = await consumer.value
      outcomes.record("yields \(yields), received \(received), error \(error), at the loop's end \(atLoopEnd), then \(termination.value)")
    }
  }

  static let configuration = ExploreConfiguration(progressInterval: nil)

  @Test("yielding 1, 2, 3 before anyone reads leaves what the policy keeps, as AsyncStream does")
  func policyAppliesAtYield() async throws {
    for (policy, expected) in [(AsyncStream<Int>.Continuation.BufferingPolicy.bufferingNewest(1), [3]), (.bufferingOldest(1), [1])] {
      let summary = try await explore(.exhaustive, configuration: Self.configuration) {
        let (stream, continuation) = AsyncStream.makeEffectStream("numbers", of: Int.self, bufferingPolicy: policy)
        for number in 1...3 { continuation.yield(number) }
        continuation.finish()
        var received: [Int] = []
        for await number in stream { received.append(number) }
        try check(received == expected, "received \(received)")
      }
      #expect(summary.exploredEverySchedule)
    }
  }

  @Test("producer/consumer programs have the same outcomes with AsyncStream and AsyncStream.effect",
    arguments: [StreamEnding.finish, .cancelConsumer, .breakEarly])
  func sameOutcomes(_ ending: StreamEnding) async throws {
    for (name, policy) in Self.policies {
      let plain = Outcomes()
      let effect = Outcomes()
      let plainSummary = try await explore(.exhaustive, configuration: Self.configuration, Self.program(effect: false, policy: policy, ending: ending, into: plain))
      let effectSummary = try await explore(.exhaustive, configuration: Self.configuration, Self.program(effect: true, policy: policy, ending: ending, into: effect))
      // Cancelled in the step that started it, the consumer could start first on real threads: on
      // 64-bit Linux the cancellation is a scheduling point, so that order is explored too;
      // elsewhere the exploration says it is not (`unexplored`), and claims the rest.
      #expect(ClassicBug.searchedAllItCould(plainSummary) && ClassicBug.searchedAllItCould(effectSummary))
      #if os(Linux) && _pointerBitWidth(_64)
        #expect(plainSummary.unexplored == nil && effectSummary.unexplored == nil)
      #else
        #expect((plainSummary.unexplored != nil) == (ending == .cancelConsumer))
      #endif
      #expect(effect.all == plain.all, "\(name): AsyncStream \(plain.all.sorted()), AsyncStream.effect \(effect.all.sorted())")
    }
  }

  @Test("producer/consumer programs have the same outcomes with AsyncThrowingStream and AsyncThrowingStream.effect",
    arguments: StreamEnding.allCases)
  func sameThrowingOutcomes(_ ending: StreamEnding) async throws {
    let policies: [(String, AsyncThrowingStream<Int, any Error>.Continuation.BufferingPolicy)] = [
      ("unbounded", .unbounded), ("oldest(1)", .bufferingOldest(1)), ("newest(1)", .bufferingNewest(1)),
    ]
    for (name, policy) in policies {
      let plain = Outcomes()
      let effect = Outcomes()
      _ = try await explore(.exhaustive, configuration: Self.configuration, Self.throwingProgram(effect: false, policy: policy, ending: ending, into: plain))
      _ = try await explore(.exhaustive, configuration: Self.configuration, Self.throwingProgram(effect: true, policy: policy, ending: ending, into: effect))
      #expect(effect.all == plain.all, "\(name): plain \(plain.all.sorted()), .effect \(effect.all.sorted())")
    }
  }

  @Test("a cancelled consumer's loop ends after the producer's onTermination, under every schedule")
  func terminationBeforeTheLoopEnds() async throws {
    let outcomes = Outcomes()
    _ = try await explore(.exhaustive, configuration: Self.configuration, Self.program(effect: true, policy: .unbounded, ending: .cancelConsumer, into: outcomes))
    #expect(!outcomes.all.isEmpty)
    for outcome in outcomes.all { #expect(outcome.contains("at the loop's end cancelled"), "\(outcome)") }
  }
}
