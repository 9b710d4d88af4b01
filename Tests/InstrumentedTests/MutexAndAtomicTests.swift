import EffectScheduler
import Explore
import ExploreTesting
import Synchronization
import Testing

// This target is built with `-Xfrontend -sanitize=thread` (see Package.swift): every atomic
// operation of its code, `Mutex.withLock`'s inlined fast path among them, is a scheduling point.

/// A cache whose get-or-create looks the key up in one critical section and stores what it made
/// in a second, with no `await` between (`splitsTheCreate`): two callers between the two both make
/// the value. Fixed, the lookup and the store share one critical section.
private final class Cache: Sendable {
  private let values = Mutex<[String: Int]>([:])
  let made = Atomic<Int>(0)
  private let splitsTheCreate: Bool

  init(splitsTheCreate: Bool) { self.splitsTheCreate = splitsTheCreate }

  func value(for key: String) -> Int {
    if splitsTheCreate {
      if let known = values.withLock({ $0[key] }) { return known }
      let made = make()
      values.withLock { $0[key] = made }
      return made
    }
    return values.withLock { values in
      if let known = values[key] { return known }
      let made = make()
      values[key] = made
      return made
    }
  }

  private func make() -> Int { made.add(1, ordering: .relaxed).newValue }
}

/// A service started once by whichever caller comes first: with `checksThenStarts`, it loads the
/// flag and stores it in two atomic operations, so two callers can both start it; fixed, one
/// compare-exchange decides.
final class Service: Sendable {
  private let started = Atomic<Bool>(false)
  let starts = Atomic<Int>(0)
  private let checksThenStarts: Bool

  init(checksThenStarts: Bool) { self.checksThenStarts = checksThenStarts }

  func start() {
    if checksThenStarts {
      guard !started.load(ordering: .acquiring) else { return }
      started.store(true, ordering: .releasing)
    } else {
      guard started.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
    }
    starts.add(1, ordering: .relaxed)
  }
}

@Suite("Instrumented code: atomics and Mutex critical sections are scheduling points")
struct MutexAndAtomicTests {
  static let configuration = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil))

  static func twoCallers(splitsTheCreate: Bool) -> @Sendable () async throws -> Void {
    {
      let cache = Cache(splitsTheCreate: splitsTheCreate)
      async let first = cache.value(for: "key")
      async let second = cache.value(for: "key")
      let values = await [first, second]
      #expect(values[0] == values[1], "two callers made the value")
      #expect(cache.made.load(ordering: .relaxed) == 1)
    }
  }

  static func twoStarters(checksThenStarts: Bool) -> @Sendable () async throws -> Void {
    {
      let service = Service(checksThenStarts: checksThenStarts)
      let callers = [Task { service.start() }, Task { service.start() }]
      for caller in callers { await caller.value }
      #expect(service.starts.load(ordering: .relaxed) == 1)
    }
  }

  @Test("the process knows its code is instrumented")
  func instrumentationIsActive() {
    #expect(Instrumentation.isActive)
  }

  @Test("a get-or-create split across two Mutex.withLock calls is found", arguments: [ExplorationStrategy.default, .exhaustive])
  func splitGetOrCreateFound(strategy: ExplorationStrategy) async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(strategy, configuration: Self.configuration, Self.twoCallers(splitsTheCreate: true))
    }
    #expect(failure.summary.contains("made"), "\(failure.summary)")
  }

  @Test("the get-or-create in one critical section passes every schedule", arguments: [ExplorationStrategy.default, .exhaustive])
  func getOrCreatePasses(strategy: ExplorationStrategy) async throws {
    let summary = try await explore(strategy, configuration: Self.configuration, Self.twoCallers(splitsTheCreate: false))
    #expect(summary.exploredEverySchedule, "\(summary)")
  }

  @Test("a check-then-start on two atomic operations is found", arguments: [ExplorationStrategy.default, .exhaustive])
  func checkThenStartFound(strategy: ExplorationStrategy) async throws {
    _ = try await requireFailure(ExplorationFailure.self) {
      try await explore(strategy, configuration: Self.configuration, Self.twoStarters(checksThenStarts: true))
    }
  }

  @Test("searched on two threads, the summary says too that the code was instrumented", arguments: [ExplorationStrategy.default, .exhaustive])
  func parallelSearchSaysInstrumented(strategy: ExplorationStrategy) async throws {
    let configuration = ExploreConfiguration(progressInterval: nil, searchers: 2, portfolioBudget: PortfolioBudget(time: nil))
    let summary = try await explore(strategy, configuration: configuration, Self.twoStarters(checksThenStarts: false))
    #expect(summary.exploredEverySchedule && summary.instrumented, "\(summary)")
  }

  @Test("a start decided by one compare-exchange passes every schedule", arguments: [ExplorationStrategy.default, .exhaustive])
  func compareExchangeStartPasses(strategy: ExplorationStrategy) async throws {
    let summary = try await explore(strategy, configuration: Self.configuration, Self.twoStarters(checksThenStarts: false))
    #expect(summary.exploredEverySchedule, "\(summary)")
  }
}
