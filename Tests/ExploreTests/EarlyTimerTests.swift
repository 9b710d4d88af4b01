import BugCatalogue
import EffectScheduler
import Explore
import ExploreTesting
import Synchronization
import Testing

/// Counts how often a result was delivered to a caller that expects exactly one.
private final class Delivery: Sendable {
  private let deliveries = Mutex(0)

  /// Delivers a result; `onlyOnce` drops any after the first.
  func deliver(onlyOnce: Bool) {
    deliveries.withLock { count in
      if !onlyOnce || count == 0 { count += 1 }
    }
  }

  var count: Int { deliveries.withLock { $0 } }
}

/// A service whose work never sleeps: it only hops onto its actor.
private actor Service {
  func compute() -> Int { 42 }
}

@Suite("Timers may fire before ready work")
struct EarlyTimerTests {
  /// An exploration's default: one timer a run may fire while jobs are ready.
  /// The default configuration, but for the portfolio's time budget: under a loaded machine a
  /// 2 s budget may run out before the default portfolio reaches the race, so the budget counts
  /// schedules only and the verdict does not depend on the machine's speed.
  static let configuration = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil))

  /// An operation raced against a one-second timeout. Whichever ends first delivers and cancels
  /// the other; but the operation never checks for cancellation, so if the timeout fires first,
  /// the operation delivers a second result. Only a timer firing while the operation is ready,
  /// as a delayed thread would let it, shows the bug: the operation never sleeps.
  static func timeoutRace(guarded: Bool, spawn: Spawn) -> @Sendable () async throws -> Void {
    {
      let delivery = Delivery()
      let service = Service()
      let handles = Handles()
      let operation = spawn(name: "operation") {
        _ = await service.compute()
        handles.timeout?.cancel()
        delivery.deliver(onlyOnce: guarded)
      }
      let timeout = spawn(name: "timeout") {
        guard (try? await Task.sleep(for: .seconds(1))) != nil else { return }
        operation.cancel()
        delivery.deliver(onlyOnce: guarded)
      }
      handles.timeout = timeout
      await operation.value
      await timeout.value
      try check(delivery.count == 1, "the caller got \(delivery.count) results")
    }
  }

  @Test("a timeout that fires while the operation is ready is found by .exhaustive and .default, and replays",
    arguments: [ExplorationStrategy.exhaustive, .default], Spawn.allCases)
  func findsTimeoutRace(_ strategy: ExplorationStrategy, spawn: Spawn) async throws {
    let configuration = Self.configuration
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(strategy, configuration: configuration, Self.timeoutRace(guarded: false, spawn: spawn))
    }
    #expect(failure.underlyingError is InvariantViolation, "\(failure)")
    let schedule = try #require(failure.schedule)
    #expect(schedule.description.contains("t"), "\(schedule)")
    // The report says where the timer fired early, and the trace has a row for that step.
    let step = try #require(schedule.choices.firstIndex(of: .timer))
    #expect(failure.description.contains("timer:    fired early at step \(step)"), "\(failure)")
    let row = failure.description.split(separator: "\n").first { $0.drop { $0 == " " }.hasPrefix("\(step) |") }
    #expect(row?.contains("timer fired early") == true, "\(failure)")
    let replayed = try await requireFailure(ExplorationFailure.self) {
      try await explore(.replay(schedule.description), configuration: configuration, Self.timeoutRace(guarded: false, spawn: spawn))
    }
    #expect(replayed.trace == failure.trace)
  }

  @Test("an exploration fires timers early by default, where a single run does not")
  func defaults() {
    #expect(ExploreConfiguration().scheduler.earlyTimerFirings == 1)
    #expect(SchedulerConfiguration().earlyTimerFirings == 0)
  }

  @Test("the guarded twin passes every schedule, and without early firings the race is never tried",
    arguments: Spawn.allCases)
  func guardedTwinPasses(_ spawn: Spawn) async throws {
    let configuration = Self.configuration
    let guarded = try await explore(.exhaustive, configuration: configuration, Self.timeoutRace(guarded: true, spawn: spawn))
    #expect(guarded.claimsEverySchedule(assuming: [.timedWorkRanOnTime, .synchronizationRanWhole]))
    var late = configuration
    late.scheduler.earlyTimerFirings = 0
    let unguarded = try await explore(.exhaustive, configuration: late, Self.timeoutRace(guarded: false, spawn: spawn))
    #expect(unguarded.claimsEverySchedule(assuming: [.synchronizationRanWhole]), "\(unguarded)")
    #expect(unguarded.schedules < guarded.schedules, "\(unguarded.schedules) schedules without the choice, \(guarded.schedules) with it")
  }

  @Test("the reduced search finds the race too, firing the timer only where it matters", arguments: Spawn.allCases)
  func reducedFindsTimeoutRace(spawn: Spawn) async throws {
    let configuration = Self.configuration
    _ = try await requireFailure(ExplorationFailure.self) {
      try await explore(.reduced(), configuration: configuration, Self.timeoutRace(guarded: false, spawn: spawn))
    }
    let reduced = try await explore(.reduced(), configuration: configuration, Self.timeoutRace(guarded: true, spawn: spawn))
    let full = try await explore(.exhaustive, configuration: configuration, Self.timeoutRace(guarded: true, spawn: spawn))
    #expect(full.claimsEverySchedule(assuming: [.timedWorkRanOnTime, .synchronizationRanWhole]))
    #expect(reduced.schedules < full.schedules)
    // The two tasks deliver through a `Mutex`, which the scheduler cannot see: the reduced
    // search claims nothing, and says which steps it took as independent.
    #expect(!reduced.exploredEverySchedule)
    #expect(reduced.reductionCheck?.firstAssumedPair != nil, "\(reduced)")
  }

  @Test("a schedule string names an early firing as t, and reads it back")
  func scheduleStrings() throws {
    let schedule = try Schedule(parsing: "s1:0.t.1*2")
    #expect(schedule.choices == [.task(TaskID(0)), .timer, .task(TaskID(1)), .task(TaskID(1))])
    #expect(schedule.description == "s1:0.t.1*2")
  }
}

/// Lets the operation cancel the timeout task, created after it.
private final class Handles: @unchecked Sendable {
  private let lock = Mutex<Task<Void, Never>?>(nil)
  var timeout: Task<Void, Never>? {
    get { lock.withLock { $0 } }
    set { lock.withLock { $0 = newValue } }
  }
}

/// A flag a task checks while the root sleeps, then sets.
private final class Flag: @unchecked Sendable {
  var isSet = false
}

@Suite("A run the early-timer rule stops is still judged by what it recorded")
struct CutRunVerdictTests {
  /// A task checks a flag that the root sets after sleeping 1 ms: on real threads the task may be
  /// delayed past the sleep and find it set. The timer fired early while the task was ready
  /// delays it; recording the failed expectation reads the clock, which stops the run there.
  @Test("a failed #expect in a run stopped at the step that recorded it fails the exploration, under every strategy that claims",
    arguments: ["exhaustive", "reduced"])
  func expectationInAStoppedRun(strategyName: String) async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(ClaimingStrategies.named(strategyName), configuration: EarlyTimerTests.configuration) {
        let flag = Flag()
        let checker = Task { #expect(!flag.isSet) }
        try await Task.sleep(for: .milliseconds(1))
        flag.isSet = true
        await checker.value
      }
    }
    #expect(failure.summary.contains("the body recorded an issue"), "\(failure.summary)")
    #expect(failure.summary.contains(".isSet → true"), "\(failure.summary)")
  }

  @Test("a pass whose runs were stopped before their verdict was known says so in its claim")
  func stoppedRunsQualifyTheClaim() async throws {
    let summary = try await explore(.exhaustive, configuration: EarlyTimerTests.configuration) {
      let checker = Task { _ = ContinuousClock.now }
      try await Task.sleep(for: .milliseconds(1))
      await checker.value
    }
    #expect(summary.claim == ExplorationClaim(coversEverySchedule: true, assumptions: [.timedWorkRanOnTime]), "\(summary)")
    #expect(!summary.exploredEverySchedule)
  }
}
