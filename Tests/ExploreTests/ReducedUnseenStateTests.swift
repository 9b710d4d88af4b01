import BugCatalogue
@testable import EffectScheduler
@testable import Explore
import Synchronization
import Testing

/// A `Mutex` or an `Atomic` shared by reference, as a class holding one is.
private final class Shared<Value: ~Copyable & Sendable>: Sendable {
  let value: Value
  init(_ value: consuming Value) { self.value = value }
}

/// A channel in the style of swift-async-algorithms' `AsyncChannel`, on `Synchronization.Mutex`,
/// which the scheduler cannot see: state behind the mutex, the continuations of waiting senders
/// and receivers stored in it and resumed outside it.
private final class MutexChannel: Sendable {
  private struct State {
    var receivers: [CheckedContinuation<Int?, Never>] = []
    var senders: [(Int, CheckedContinuation<Void, Never>)] = []
    var finished = false
  }
  private let state = Mutex(State())

  func send(_ element: Int) async {
    await withCheckedContinuation { (sent: CheckedContinuation<Void, Never>) in
      let receiver: CheckedContinuation<Int?, Never>? = state.withLock { state in
        if !state.receivers.isEmpty { return state.receivers.removeFirst() }
        state.senders.append((element, sent))
        return nil
      }
      if let receiver {
        receiver.resume(returning: element)
        sent.resume()
      }
    }
  }

  func next() async -> Int? {
    await withCheckedContinuation { (received: CheckedContinuation<Int?, Never>) in
      enum Action { case take(Int, CheckedContinuation<Void, Never>), end, wait }
      let action: Action = state.withLock { state in
        if !state.senders.isEmpty { let (e, s) = state.senders.removeFirst(); return .take(e, s) }
        if state.finished { return .end }
        state.receivers.append(received)
        return .wait
      }
      switch action {
      case .take(let element, let sender):
        sender.resume()
        received.resume(returning: element)
      case .end: received.resume(returning: nil)
      case .wait: break
      }
    }
  }

  func finish() {
    let waiting = state.withLock { state in
      state.finished = true
      defer { state.receivers = [] }
      return state.receivers
    }
    for receiver in waiting { receiver.resume(returning: nil) }
  }
}


/// Programs whose tasks share state through a `Mutex`, which the scheduler never sees.
enum UnseenMutexProgram: String, CaseIterable, CustomStringConvertible {
  case orderRace, channel

  var description: String { rawValue }

  func run(spawning spawn: Spawn, reporting report: AllOutcomes.Report) async {
    switch self {
    case .orderRace:
      let order = Shared(Mutex(""))
      let first = spawn(name: "first") { order.value.withLock { $0 += "1" } }
      let second = spawn(name: "second") { order.value.withLock { $0 += "2" } }
      _ = await (first.value, second.value)
      report.finalState(order.value.withLock { $0 })
    case .channel:
      let channel = MutexChannel()
      let got = Shared(Mutex<[String]>([]))
      let producers = [1, 2].map { element in spawn(name: "send \(element)") { await channel.send(element) } }
      let consumers = ["a", "b"].map { name in
        spawn(name: "receive \(name)") {
          if let element = await channel.next() { got.value.withLock { $0.append("\(name)\(element)") } }
        }
      }
      for producer in producers { await producer.value }
      channel.finish()
      for consumer in consumers { await consumer.value }
      report.finalState(got.value.withLock { $0.sorted().joined(separator: ",") })
    }
  }
}

/// An actor the tasks below report to.
private actor Log {
  private(set) var lines: [String] = []
  func add(_ line: String) { lines.append(line) }
  /// Serves a request whose caller found the session open, noting if it is closed by now.
  func serve(_ open: Shared<Mutex<Bool>>) {
    let isOpen = open.value.withLock { $0 }
    lines.append(isOpen ? "served" : "served a closed session")
  }
}

/// An actor whose method appends to a list behind a `Mutex` it shares with others.
private actor MutexTaker {
  let shared: Shared<Mutex<[String]>>
  init(_ shared: Shared<Mutex<[String]>>) { self.shared = shared }
  func take() { shared.value.withLock { $0.append("y") } }
}

@Suite("The reduced search and state it cannot see")
struct ReducedUnseenStateTests {
  @Test("a Mutex order race and a Mutex-based channel: the reduced search sees every outcome the full one sees",
    arguments: UnseenMutexProgram.allCases, Spawn.allCases)
  func sameOutcomes(program: UnseenMutexProgram, spawn: Spawn) async {
    await AllOutcomes.expectReducedSearchSeesEverything(limit: 20_000, "\(program), \(spawn)") {
      await program.run(spawning: spawn, reporting: $0)
    }
  }

  @Test("a flag behind a Mutex that decides what a task does next: the reduction is not justified, and the summary names the steps and tasks",
    arguments: Spawn.allCases)
  func unjustified(spawn: Spawn) async throws {
    let summary = try await explore(.reduced) {
      let flag = Shared(Mutex(false))
      let log = Log()
      let setter = spawn(name: "setter") { flag.value.withLock { $0 = true } }
      let reader = spawn(name: "reader") {
        if flag.value.withLock({ $0 }) { await log.add("saw it") }
      }
      _ = await (setter.value, reader.value)
    }
    let check = try #require(summary.reductionCheck)
    #expect(!summary.exploredEverySchedule)
    #expect(check.swapsChanged > 0)
    #expect(!check.justified)
    let change = try #require(check.firstChange)
    #expect(change.contains("step 1 of #1") && change.contains("step 2 of #2"), "\(change)")
    #expect(summary.description.contains("could not be justified"), "\(summary)")
  }

  @Test("tasks that share only actors, assumed to share nothing unseen: every pair taken as independent is tried the other way round, and the reduction is justified",
    arguments: Spawn.allCases)
  func justified(spawn: Spawn) async throws {
    let summary = try await explore(.reduced, configuration: ExploreConfiguration(progressInterval: nil, assumesNoUnseenSharing: true)) {
      let log = Log()
      let tasks = ["a", "b", "c"].map { name in spawn(name: name) { await log.add(name) } }
      for task in tasks { await task.value }
    }
    let check = try #require(summary.reductionCheck)
    #expect(summary.claimsEverySchedule(assuming: [.noUnseenSharing]))
    #expect(check.justified)
    #expect(check.assumedPairs > 0)
    #expect(check.swapsTried == check.assumedPairs)
    #expect(summary.description.contains("each tried the other way round without a change"), "\(summary)")
    #expect(!summary.description.contains("could not be justified"), "\(summary)")
  }

  /// The assumption drops the guess that keeps a task's check before an actor hop dependent with
  /// other tasks' steps until the actor's job runs. Set wrongly, on a logout race (a session flag
  /// behind a `Mutex`, checked before the hop, the logout spawned first so that the first run
  /// passes), the search finds the bug, claims nothing, or says that it took pairs of steps with
  /// an actor's job as independent on the assumption alone. The root awaits both tasks, so it
  /// reads their completions, and the search tries the request's check before the logout through
  /// that race; what is left, the logout between the check and the actor's job, is such a pair.
  @Test("assumed wrongly, a check behind a Mutex before an actor hop is found, the claim refused, or the pairs it rests on counted",
    arguments: Spawn.allCases)
  func wrongAssumption(spawn: Spawn) async throws {
    let assuming = ExploreConfiguration(progressInterval: nil, assumesNoUnseenSharing: true)
    do {
      let summary = try await explore(.reduced, configuration: assuming) {
        let open = Shared(Mutex(true))
        let log = Log()
        let logout = spawn(name: "logout") { open.value.withLock { $0 = false } }
        let request = spawn(name: "request") {
          if open.value.withLock({ $0 }) { await log.serve(open) }
        }
        _ = await (logout.value, request.value)
        try check(await !log.lines.contains("served a closed session"), "the request was served after the logout")
      }
      let reduction = try #require(summary.reductionCheck)
      #expect(!summary.exploredEverySchedule || reduction.actorJobPairs > 0, "\(summary)")
      #expect(reduction.swapsChanged > 0 || summary.description.contains("with an actor's job, not tried"), "\(summary)")
    } catch {
      #expect("\(error)".contains("after the logout"), "\(error)")
    }
  }

  @Test("without the assumption, a search that took pairs as independent unseen claims nothing, and names the first pair",
    arguments: Spawn.allCases)
  func notAssumed(spawn: Spawn) async throws {
    let summary = try await explore(.reduced, configuration: ExploreConfiguration(progressInterval: nil)) {
      let log = Log()
      let tasks = ["a", "b", "c"].map { name in spawn(name: name) { await log.add(name) } }
      for task in tasks { await task.value }
    }
    let check = try #require(summary.reductionCheck)
    #expect(!summary.exploredEverySchedule)
    #expect(!check.justified && check.swapsChanged == 0 && check.assumedPairs > 0)
    let pair = try #require(check.firstAssumedPair)
    #expect(pair.hasPrefix("step "), "\(pair)")
    #expect(summary.description.contains("could not be justified") && summary.description.contains(pair), "\(summary)")
    #expect(summary.description.contains("assumesNoUnseenSharing"), "\(summary)")
  }

  /// The jobs of two actors (here the main actor and another) that both take a `Mutex` in their
  /// methods: the reduction takes the jobs as independent, as they touch different actors, yet the
  /// order they take the mutex in is the outcome. Without the assumption that nothing unseen is
  /// shared, the search must not claim every schedule; before, only pairs of steps outside actors
  /// counted, and it claimed every schedule after one, missing an outcome.
  @Test("two actors' jobs that take one Mutex: without the assumption the reduced search claims nothing, and the full one sees both orders")
  func actorJobsSharingAMutex() async throws {
    let shared = Shared(Mutex<[String]>([]))
    let program: @Sendable () async -> Void = {
      shared.value.withLock { $0 = [] }
      let other = MutexTaker(shared)
      // Both jobs run the work of tasks the root only awaits, so that nothing of the root's
      // orders them: the root reads each task's completion (see `StepAccesses`).
      let onMain = Task { @MainActor in shared.value.withLock { $0.append("m") } }
      let taker = Task { await other.take() }
      await taker.value
      await onMain.value
    }
    let configuration = ExploreConfiguration(progressInterval: nil)
    let reduced = try await explore(.reduced, configuration: configuration) { await program() }
    #expect(!reduced.exploredEverySchedule, "\(reduced)")
    #expect((reduced.reductionCheck?.actorJobPairs ?? 0) > 0, "\(reduced)")
    let portfolio = try await explore(configuration: configuration) { await program() }
    #expect(portfolio.exploredEverySchedule == false || portfolio.portfolioParts.contains { $0.part == .exhaustive }, "\(portfolio)")
  }

  /// Two tasks append to a string behind a `Mutex` in three steps each. Each pair of their steps,
  /// tried the other way round, changes nothing the scheduler sees, yet the full search finds 20
  /// orders and the reduced one a handful: the reason it claims nothing without the assumption.
  @Test("a Mutex order race over several steps: the reduced search sees fewer orders and claims nothing; the default portfolio settles it exhaustively")
  func orderRaceOverSeveralSteps() async throws {
    let program: @Sendable (AllOutcomes.Report) async throws -> Void = { report in
      let order = Shared(Mutex(""))
      await withDiscardingTaskGroup { group in
        for task in 0..<2 {
          group.addTask {
            for _ in 0..<3 {
              order.value.withLock { $0 += "\(task)" }
              await Task.yield()
            }
          }
        }
      }
      report.finalState(order.value.withLock { $0 })
    }
    // Under the default fairness rule, which cuts none of these few yields' interleavings.
    let scheduler = SchedulerConfiguration(outsideWorldTimeout: .milliseconds(1))
    let full = await AllOutcomes.of(DepthFirstSearch(), limit: 1_000, configuration: scheduler, program)
    let reduced = await AllOutcomes.of(ReducedDepthFirstSearch(), configuration: scheduler, program)
    #expect(full.complete && full.outcomes.count == 20)
    #expect(reduced.outcomes.count < full.outcomes.count)
    #expect(!reduced.claimedEverySchedule)

    let configuration = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil))
    let summary = try await explore(configuration: configuration) { try await program(AllOutcomes.Report()) }
    #expect(summary.claimsEverySchedule(assuming: [.synchronizationRanWhole]), "\(summary)")
    #expect(summary.portfolioParts.map(\.part) == [.reduced, .exhaustive])
    #expect(summary.portfolioParts.map(\.ending) == [.unjustified, .triedEverySchedule])
  }
}
