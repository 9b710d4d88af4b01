import BugCatalogue
import EffectScheduler
import Explore
import ExploreTesting
import Synchronization
import Testing

/// A model whose loading a poller waits for.
private actor Model {
  private(set) var isLoaded = false
  func load() { isLoaded = true }
}

/// A flag nobody ever sets.
private actor NeverSet {
  var isSet: Bool { false }
}

@Suite("Fair scheduling: tasks that spin on Task.yield()")
struct FairSchedulingTests {
  static let configuration = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil, schedules: 20_000))

  /// A task spins until the root cancels it, after one yield of the root's own.
  static func spinner(_ spawn: Spawn) -> @Sendable () async throws -> Void {
    {
      let spinning = spawn(name: "spinner") {
        while !Task.isCancelled { await Task.yield() }
      }
      await Task.yield()
      spinning.cancel()
      await spinning.value
    }
  }

  /// The root polls the model until a loader task has loaded it.
  static func poller(_ spawn: Spawn) -> @Sendable () async throws -> Void {
    {
      let model = Model()
      let loader = spawn(name: "loader") {
        await Task.yield()
        await model.load()
      }
      while await !model.isLoaded { await Task.yield() }
      await loader.value
    }
  }

  /// The root polls the model until a loader task that sleeps first has loaded it: the root spins
  /// alone while the loader sleeps, and time passes while it does.
  static func pollerOfASleeper(_ spawn: Spawn) -> @Sendable () async throws -> Void {
    {
      let model = Model()
      let loader = spawn(name: "loader") {
        try? await Task.sleep(for: .milliseconds(5))
        await model.load()
      }
      while await !model.isLoaded { await Task.yield() }
      await loader.value
    }
  }

  static let strategies: [ExplorationStrategy] = [
    .exhaustive, .reduced(), .preemptionBounded(2), .random(schedules: 200), .pct(schedules: 200), .default,
  ]

  /// A spin loop ended by a cancel, and a poll loop waiting for another task.
  enum Loop: String, CaseIterable, CustomStringConvertible {
    case spinner, poller

    var description: String { rawValue }

    func program(_ spawn: Spawn) -> @Sendable () async throws -> Void {
      switch self {
      case .spinner: FairSchedulingTests.spinner(spawn)
      case .poller: FairSchedulingTests.poller(spawn)
      }
    }
  }

  @Test("spin and poll loops pass under every strategy, with either spawn kind, and exhaustive searches end",
    arguments: Loop.allCases, strategies)
  func loopsPass(_ loop: Loop, strategy: ExplorationStrategy) async throws {
    for spawn in Spawn.allCases {
      let summary = try await explore(strategy, configuration: Self.configuration, loop.program(spawn))
      #expect(summary.schedules > 0)
      // The search ends because the rule held the spinning task back once it had yielded past the
      // bound while another waited: the orders in which it spins longer are real, and not
      // explored, so the claim names the rule.
      if strategy == .exhaustive { #expect(summary.claim == ExplorationClaim(coversEverySchedule: true, assumptions: [.fairYields]), "\(spawn): \(summary)") }
      // The reduced search ends too, and claims every schedule only where it can justify it.
      if strategy == .reduced(), let check = summary.reductionCheck {
        #expect(!summary.claim.coversEverySchedule || check.justified, "\(spawn): \(summary)")
        #expect(summary.claim.coversEverySchedule || !check.justified || check.assumedPairs > 0, "\(spawn): \(summary)")
        #expect(summary.claim.assumptions.contains(.fairYields), "\(spawn): \(summary)")
      }
    }
  }

  @Test("a task polling alone while the task it waits for sleeps lets time pass, instead of failing as a livelock")
  func pollingASleeperEnds() async throws {
    // Without early timer firings, every run spins until time passes; with them (the default), a
    // random search tries both.
    var late = Self.configuration
    late.scheduler.earlyTimerFirings = 0
    for spawn in Spawn.allCases {
      for strategy in [ExplorationStrategy.exhaustive, .reduced(), .default] {
        let summary = try await explore(strategy, configuration: late, Self.pollerOfASleeper(spawn))
        #expect(summary.schedules > 0)
        // Time passes once the poller has spun alone past the bound: the rule's doing, so named.
        if strategy == .exhaustive { #expect(summary.claim == ExplorationClaim(coversEverySchedule: true, assumptions: [.fairYields]), "\(spawn): \(summary)") }
      }
      try await explore(.random(schedules: 50), configuration: Self.configuration, Self.pollerOfASleeper(spawn))
    }
  }

  @Test("two tasks that spin on a flag nobody sets are still a livelock, under every fair schedule")
  func realLivelockIsReported() async throws {
    var configuration = Self.configuration
    configuration.scheduler.maxSteps = 2_000
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: configuration) {
        let flag = NeverSet()
        let first = Task.effect(name: "first") { while await !flag.isSet { await Task.yield() } }
        let second = Task.effect(name: "second") { while await !flag.isSet { await Task.yield() } }
        await first.value
        await second.value
      }
    }
    #expect(failure.summary.contains("livelock"), "\(failure.summary)")
    #expect(failure.summary.contains("these tasks kept running: #1 first, #2 second"), "\(failure.summary)")
  }

  /// The root waits for a flag a setter task sets, starting a fresh task each time round, as
  /// swift-clocks' `TestClock.advance` yields from fresh detached tasks: no task yields twice, so
  /// only the bound on unfair steps (`SchedulerConfiguration.stepsBeforeFairness`) lets the setter
  /// run where a strategy keeps it waiting, as PCT does once it has lowered its priority.
  @Sendable static func waitForTheSetter() async {
    let done = Atomic(false)
    let setter = Task { done.store(true, ordering: .relaxed) }
    while !done.load(ordering: .relaxed) { await Task.detached {}.value }
    await setter.value
  }

  @Test("a loop waiting for a setter while starting fresh tasks passes under every strategy, and claims no schedule past the bound",
    arguments: [ExplorationStrategy.pct(schedules: 60), .random(schedules: 60), .reduced(maxSchedules: 20), .default])
  func waitingOnFreshTasks(strategy: ExplorationStrategy) async throws {
    // A budget of a few hundred schedules: runs that keep the setter waiting take 10,000 steps.
    let configuration = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil, schedules: 300))
    let summary = try await explore(strategy, configuration: configuration) { await Self.waitForTheSetter() }
    #expect(!summary.exploredEverySchedule)
  }
}
