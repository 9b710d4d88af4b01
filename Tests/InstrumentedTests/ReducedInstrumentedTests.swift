import EffectScheduler
import Foundation
import Explore
import Synchronization
import Testing

// In an instrumented build, the reduction sees what steps read and write: it claims every
// schedule without assuming the tasks share nothing unseen, and its outcomes are `.exhaustive`'s.

private actor Counter {
  var log: [Int] = []
  func add(_ value: Int) { log.append(value) }
}

/// A channel built as swift-async-algorithms builds `AsyncChannel`: state behind a `Mutex`, the
/// continuations of waiting senders and receivers stored in it and resumed outside the lock.
private final class MutexChannel: Sendable {
  private struct State {
    var receivers: [CheckedContinuation<Int, Never>] = []
    var senders: [(Int, CheckedContinuation<Void, Never>)] = []
  }
  private let state = Mutex(State())

  func send(_ element: Int) async {
    await withCheckedContinuation { (sent: CheckedContinuation<Void, Never>) in
      let receiver = state.withLock { state in
        if state.receivers.isEmpty {
          state.senders.append((element, sent))
          return nil as CheckedContinuation<Int, Never>?
        }
        return state.receivers.removeFirst()
      }
      guard let receiver else { return }
      receiver.resume(returning: element)
      sent.resume()
    }
  }

  func next() async -> Int {
    await withCheckedContinuation { (received: CheckedContinuation<Int, Never>) in
      let sender = state.withLock { state in
        if state.senders.isEmpty {
          state.receivers.append(received)
          return nil as (Int, CheckedContinuation<Void, Never>)?
        }
        return state.senders.removeFirst()
      }
      guard let (element, sender) = sender else { return }
      sender.resume()
      received.resume(returning: element)
    }
  }
}

/// A counter of plain memory behind a `Mutex`, bumped in one critical section or, split, read in
/// one and written in another.
private final class Tally: @unchecked Sendable {
  private let lock = Mutex(())
  private var count = 0
  let splits: Bool

  init(splits: Bool) { self.splits = splits }

  func bump() {
    if splits {
      let seen = lock.withLock { _ in count }
      lock.withLock { _ in count = seen + 1 }
    } else {
      lock.withLock { _ in count += 1 }
    }
  }

  var total: Int { lock.withLock { _ in count } }
}

/// Outcomes, as the programs report them, collected across runs.
private final class Outcomes: Sendable {
  private let seen = Mutex<Set<String>>([])
  func add(_ outcome: String) { _ = seen.withLock { $0.insert(outcome) } }
  var all: Set<String> { seen.withLock { $0 } }
}

@Suite("Instrumented code: the reduction claims from what steps read and write")
struct ReducedInstrumentedTests {
  static let configuration = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil))

  /// Explores `program` with `.exhaustive` and with `.reduced()`; returns both summaries and the
  /// outcomes each saw.
  fileprivate static func compare(
    _ program: @escaping @Sendable (Outcomes) async -> Void
  ) async throws -> (full: ExplorationSummary, reduced: ExplorationSummary, fullOutcomes: Set<String>, reducedOutcomes: Set<String>) {
    let fullOutcomes = Outcomes()
    let full = try await explore(.exhaustive(maxSchedules: 20_000), configuration: configuration) { await program(fullOutcomes) }
    let reducedOutcomes = Outcomes()
    let reduced = try await explore(.reduced(maxSchedules: 20_000), configuration: configuration) { await program(reducedOutcomes) }
    return (full, reduced, fullOutcomes.all, reducedOutcomes.all)
  }

  @Test("two tasks calling three actors in turn: claimed, with every outcome")
  func actorsInTurn() async throws {
    let result = try await Self.compare { outcomes in
      let counters = (0..<3).map { _ in Counter() }
      await withTaskGroup(of: Void.self) { group in
        for task in 0..<2 {
          group.addTask {
            for call in 0..<3 { await counters[(task + call) % 3].add(task) }
          }
        }
      }
      var logs: [[Int]] = []
      for counter in counters { logs.append(await counter.log) }
      outcomes.add("\(logs)")
    }
    #expect(result.full.exploredEverySchedule)
    #expect(result.reduced.exploredEverySchedule, "\(result.reduced)")
    #expect(result.reduced.schedules * 10 < result.full.schedules, "\(result.reduced.schedules) of \(result.full.schedules)")
    #expect(result.reducedOutcomes == result.fullOutcomes)
  }

  @Test("three tasks of three calls on actors of their own: claimed in a handful of schedules")
  func actorsOfTheirOwn() async throws {
    let outcomes = Outcomes()
    let summary = try await explore(.reduced(maxSchedules: 1_000), configuration: Self.configuration) {
      let counters = (0..<9).map { _ in Counter() }
      await withTaskGroup(of: Void.self) { group in
        for task in 0..<3 {
          group.addTask {
            for call in 0..<3 { await counters[task * 3 + call].add(task) }
          }
        }
      }
      var logs: [[Int]] = []
      for counter in counters { logs.append(await counter.log) }
      outcomes.add("\(logs)")
    }
    #expect(summary.exploredEverySchedule, "\(summary)")
    // The group collects its children in whichever order they complete: 3! orders and their ends.
    #expect(summary.schedules <= 50, "\(summary)")
    #expect(outcomes.all.count == 1)
  }

  @Test("a channel on a Mutex, two senders of two values and two receivers: claimed, with every outcome random schedules see")
  func mutexChannel() async throws {
    // Past the full search's reach: the outcomes of 500 random schedules stand in for its own.
    @Sendable func program(_ outcomes: Outcomes) async {
      let channel = MutexChannel()
      async let first: Void = { await channel.send(1); await channel.send(2) }()
      async let second: Void = { await channel.send(3); await channel.send(4) }()
      async let one = [channel.next(), channel.next()]
      async let other = [channel.next(), channel.next()]
      let received = await (one, other)
      _ = await (first, second)
      outcomes.add("\(received.0) \(received.1)")
    }
    let sampled = Outcomes()
    _ = try await explore(.random(schedules: 500), configuration: Self.configuration) { await program(sampled) }
    let reducedOutcomes = Outcomes()
    let reduced = try await explore(.reduced(maxSchedules: 40_000), configuration: Self.configuration) { await program(reducedOutcomes) }
    #expect(reduced.exploredEverySchedule, "\(reduced)")
    #expect(sampled.all.isSubset(of: reducedOutcomes.all), "\(sampled.all.subtracting(reducedOutcomes.all))")
  }

  @Test("a count behind a Mutex, split across two critical sections or not: the lost update is found, the fix claimed", arguments: [true, false])
  func mutexCount(splits: Bool) async throws {
    try await Self.expectClaimed(finding: splits ? ["1", "2"] : ["2"]) { outcomes in
      let tally = Tally(splits: splits)
      async let first: Void = tally.bump()
      async let second: Void = tally.bump()
      _ = await (first, second)
      outcomes.add("\(tally.total)")
    }
  }

  @Test("atomics: a check-then-store against one compare-exchange, every outcome", arguments: [true, false])
  func atomics(checksThenStores: Bool) async throws {
    try await Self.expectClaimed(finding: checksThenStores ? ["1", "2"] : ["1"]) { outcomes in
      let service = Service(checksThenStarts: checksThenStores)
      async let first: Void = service.start()
      async let second: Void = service.start()
      _ = await (first, second)
      outcomes.add("\(service.starts.load(ordering: .relaxed))")
    }
  }

  /// Expects `.exhaustive` to find `outcomes` of `program`, and `.reduced()` to claim every
  /// schedule and find the same.
  fileprivate static func expectClaimed(finding outcomes: Set<String>, _ program: @escaping @Sendable (Outcomes) async -> Void) async throws {
    let result = try await compare(program)
    #expect(result.fullOutcomes == outcomes)
    #expect(result.reduced.exploredEverySchedule, "\(result.reduced)")
    #expect(result.reducedOutcomes == result.fullOutcomes)
  }
}

/// The reduction against `.exhaustive` on generated programs that share state every way
/// instrumented code can (``SharingProgram``): where the reduction claims every schedule, its
/// outcomes are the full search's. The suite compares 6 programs; `EXPLORE_SHARING_PROGRAMS=2000`
/// compares that many and prints the counts, and `EXPLORE_SHARING_OFFSET=1000000` starts the
/// seeds that much later, for programs no run before compared.
@Suite("Instrumented code: the reduction against the full search on generated programs")
struct ReducedSharingProgramTests {
  @Test func compare() async throws {
    let target = Int(ProcessInfo.processInfo.environment["EXPLORE_SHARING_PROGRAMS"] ?? "") ?? 6
    var compared = 0
    var claimed = 0
    var reducedSchedules = 0
    var fullSchedules = 0
    var seed: UInt64 = 5_300_000 + (UInt64(ProcessInfo.processInfo.environment["EXPLORE_SHARING_OFFSET"] ?? "") ?? 0)
    while compared < target {
      seed += 1
      let program = SharingProgram(seed: seed)
      let fullOutcomes = Outcomes()
      let full = try await explore(.exhaustive(maxSchedules: 3_000), configuration: ReducedInstrumentedTests.configuration) {
        fullOutcomes.add(await program.run())
      }
      guard full.exploredEverySchedule else { continue }
      compared += 1
      let reducedOutcomes = Outcomes()
      let reduced = try await explore(.reduced(maxSchedules: 3_000), configuration: ReducedInstrumentedTests.configuration) {
        reducedOutcomes.add(await program.run())
      }
      #expect(reduced.instrumented)
      #expect(reducedOutcomes.all == fullOutcomes.all, "\(program)")
      if reduced.exploredEverySchedule { claimed += 1 }
      reducedSchedules += reduced.schedules
      fullSchedules += full.schedules
    }
    print("sharing programs: \(compared) compared, \(claimed) claimed by the reduction, \(reducedSchedules) reduced schedules against \(fullSchedules) full")
    #expect(claimed == compared)
  }
}
