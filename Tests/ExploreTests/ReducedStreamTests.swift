import BugCatalogue
@testable import EffectScheduler
import Effects
@testable import Explore
import Synchronization
import Testing

/// Programs whose tasks share a stream's buffer, which no actor guards: two producers yield into
/// it while a consumer may or may not be waiting, and its policy may drop what does not fit.
enum StreamProgram: String, CaseIterable, CustomStringConvertible {
  case newest, oldest, unbounded, effectNewest

  var description: String { rawValue }

  var policy: AsyncStream<Int>.Continuation.BufferingPolicy {
    switch self {
    case .newest, .effectNewest: .bufferingNewest(1)
    case .oldest: .bufferingOldest(1)
    case .unbounded: .unbounded
    }
  }

  func run(spawning spawn: Spawn, reporting report: AllOutcomes.Report) async throws {
    let (stream, continuation) =
      self == .effectNewest
      ? AsyncStream<Int>.makeEffectStream("numbers", bufferingPolicy: policy) : AsyncStream<Int>.makeStream(bufferingPolicy: policy)
    let seen = Mutex<[Int]>([])
    let consumer = spawn(name: "consumer") {
      for await element in stream { seen.withLock { $0.append(element) } }
    }
    let first = spawn(name: "first") { _ = continuation.yield(1) }
    let second = spawn(name: "second") { _ = continuation.yield(2) }
    await first.value
    await second.value
    continuation.finish()
    await consumer.value
    report.finalState("\(seen.withLock { $0 })")
  }
}

@Suite("The reduced search and streams")
struct ReducedStreamTests {
  @Test("producers racing into a stream's buffer: the reduced search sees every outcome the full one sees",
    arguments: StreamProgram.allCases, Spawn.allCases)
  func sameOutcomes(program: StreamProgram, spawn: Spawn) async {
    await AllOutcomes.expectReducedSearchSeesEverything(limit: 5_000, "\(program), \(spawn)") {
      try await program.run(spawning: spawn, reporting: $0)
    }
  }
}
