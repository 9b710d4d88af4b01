import EffectScheduler
import Explore
import ExploreTesting
import Synchronization
import Testing

/// State shared through an `@unchecked Sendable` class, as code that outgrew the compiler's
/// checks has it: `guarded` takes a `Mutex` around each access, otherwise nothing orders them.
private final class Tally: @unchecked Sendable {
  var count = 0
  let lock = Mutex(())
  let guarded: Bool

  init(guarded: Bool) { self.guarded = guarded }

  func add() {
    if guarded {
      lock.withLock { _ in count += 1 }
    } else {
      count += 1
    }
  }

  var total: Int { guarded ? lock.withLock { _ in count } : count }
}

/// An actor's state, and a value handed over through a continuation and a task's result: each
/// ordered by what the run sees synchronize, so no race.
private actor Ledger {
  var entries: [Int] = []
  func append(_ entry: Int) { entries.append(entry) }
}

private final class Slot: @unchecked Sendable {
  var value = 0
}

@Suite("Instrumented code: data races are reported, with both tasks and where")
struct DataRaceTests {
  static let configuration = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil))

  static func twoAdders(guarded: Bool) -> @Sendable () async throws -> Void {
    {
      let tally = Tally(guarded: guarded)
      async let first: Void = tally.add()
      async let second: Void = tally.add()
      _ = await (first, second)
      #expect(tally.total == 2)
    }
  }

  @Test("two tasks writing an unchecked Sendable class's property with nothing between are a data race, found by every strategy",
    arguments: [ExplorationStrategy.default, .exhaustive, .random(schedules: 3), .pct(schedules: 3), .preemptionBounded(2)])
  func unguardedWritesRace(strategy: ExplorationStrategy) async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(strategy, configuration: Self.configuration, Self.twoAdders(guarded: false))
    }
    #expect(failure.summary.hasPrefix("data race: task #"), "\(failure.summary)")
    // Both tasks, and where each access was: `count += 1`, whose exclusivity check the compiler
    // gives no line of its own, so it is named by its method.
    #expect(failure.summary.contains("#1 async let") && failure.summary.contains("#2 async let"), "\(failure.summary)")
    #expect(failure.summary.components(separatedBy: "DataRaceTests.swift").count == 3, "\(failure.summary)")
    #expect(failure.summary.contains("DataRaceTests.swift:20"), "\(failure.summary)")
  }

  @Test("the same writes, each inside Mutex.withLock, are no race", arguments: [ExplorationStrategy.default, .exhaustive])
  func guardedWritesPass(strategy: ExplorationStrategy) async throws {
    let summary = try await explore(strategy, configuration: Self.configuration, Self.twoAdders(guarded: true))
    #expect(summary.exploredEverySchedule, "\(summary)")
  }

  @Test("an actor's state, a value resumed through a continuation and one read after the writer completed are no race")
  func synchronizedHandOffsPass() async throws {
    let summary = try await explore(.exhaustive, configuration: Self.configuration) {
      let ledger = Ledger()
      async let first: Void = ledger.append(1)
      async let second: Void = ledger.append(2)
      _ = await (first, second)
      let slot = Slot()
      let value = await withCheckedContinuation { continuation in
        Task {
          slot.value = 7
          continuation.resume(returning: slot.value)
        }
      }
      #expect(value == 7)
      let writer = Task { slot.value = 8 }
      await writer.value
      #expect(slot.value == 8)
    }
    #expect(summary.exploredEverySchedule, "\(summary)")
  }

  /// A task started, and a task resumed, before its maker's next write: on threads the task may
  /// run before that write, an order no schedule has, as a step runs whole up to its next
  /// scheduling point. The spawn and the resume order only what the maker did before them, so
  /// the write and the task's read are a data race in the one order the run has: the verdict of
  /// the other order is in it.
  static let madeReadyBeforeAWrite: [String: @Sendable () async throws -> Void] = [
    "spawn": {
      let slot = Slot()
      let reader = Task { slot.value }
      slot.value = 1
      _ = await reader.value
    },
    "resume": {
      let slot = Slot()
      await withCheckedContinuation { continuation in
        Task {
          continuation.resume()
          slot.value = 1
        }
      }
      #expect(slot.value >= 0)
    },
  ]

  @Test("a task started or resumed, and a write its maker makes after that which the task reads, are a data race in every schedule",
    arguments: ["spawn", "resume"], [ExplorationStrategy.default, .exhaustive])
  func madeReadyBeforeAWriteRaces(program: String, strategy: ExplorationStrategy) async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(strategy, configuration: Self.configuration, Self.madeReadyBeforeAWrite[program]!)
    }
    #expect(failure.summary.hasPrefix("data race: task #"), "\(failure.summary)")
    #expect(failure.summary.components(separatedBy: "DataRaceTests.swift").count >= 3, "\(failure.summary)")
    #expect(failure.scheduleNumber == 1, "\(failure.summary)")
  }

  @Test("an object one task let go of and another allocated at the same address is no race")
  func memoryAllocatedAgainIsNoRace() async throws {
    // Run one after the other on one thread, the second task's object most often takes the
    // first's freed memory: their writes touch the same words, which the allocator orders.
    let summary = try await explore(.exhaustive, configuration: Self.configuration) {
      async let first: Int = {
        let slot = Slot()
        slot.value = 1
        return slot.value
      }()
      async let second: Int = {
        let slot = Slot()
        slot.value = 2
        return slot.value
      }()
      let values = await (first, second)
      #expect(values == (1, 2))
    }
    #expect(summary.exploredEverySchedule, "\(summary)")
  }
}

/// A lazily made global, initialized by whichever task reads it first.
private let sharedCatalog = Catalog()

private final class Catalog: @unchecked Sendable {
  var titles: [String]
  init() { titles = ["first", "second"] }
}

@Suite("Instrumented code: a lazily made global")
struct LazyGlobalRaceTests {
  @Test("read by two tasks, the first of which initializes it, is no race")
  func lazyGlobalIsNoRace() async throws {
    let summary = try await explore(.exhaustive, configuration: ExploreConfiguration(progressInterval: nil)) {
      async let first = sharedCatalog.titles.count
      async let second = sharedCatalog.titles.first
      let (count, title) = await (first, second)
      #expect(count == 2 && title == "first")
    }
    #expect(summary.exploredEverySchedule, "\(summary)")
  }
}
