import BugCatalogue
import EffectScheduler
@testable import Explore
import ExploreTesting
import Testing

// Serialized, as ``ReducedSearchTests`` is, for the same reason; a suite of its own, so that the
// two run side by side once the suites of short tests are done, and the suite ends sooner.
@Suite("Partial-order reduction: three tasks, early timers and the catalogue", .serialized)
struct ReducedSearchMoreTests {
  /// With three tasks, an option tried at a choice point sleeps while the others run: the
  /// comparison checks that sleeping options are woken whenever a step depends on them.
  /// (The suite's share of the comparison: the by-hand ``DifferentialReductionTests`` runs
  /// thousands more.)
  @Test("on 50 generated programs of three tasks, the reduced search sees exactly the outcomes of the full one, in fewer schedules")
  func sameOutcomesWithThreeTasks() async {
    let (full, reduced) = await ReducedSearchTests.compare(50, programsFrom: 50_000_000, taskCount: 3, fullLimit: 400)
    #expect(reduced * 2 < full)
  }

  /// With timers allowed to fire while jobs are ready, the reduced search fires one early only
  /// before the steps that affect it, and takes a move of the clock for no barrier: it must still
  /// see every outcome, with cancellation and streams too.
  @Test(
    "on 150 generated programs, with one early timer firing a run, the reduced search sees exactly the outcomes of the full one, in fewer schedules",
    arguments: 0..<3)
  func sameOutcomesWithEarlyTimers(batch: UInt64) async {
    var configuration = SchedulerConfiguration(outsideWorldTimeout: .milliseconds(1))
    configuration.earlyTimerFirings = 1
    let (full, reduced) = await ReducedSearchTests.compare(
      50, programsFrom: 70_000_000 + batch * 1_000_000, taskCount: 2, fullLimit: 60, configuration: configuration,
      withCancellation: batch > 0, withStreams: batch == 2)
    #expect(reduced * 2 < full)
  }

  /// Three programs of three tasks, with cancellation, a stream and one early firing, that the
  /// by-hand differential check (``DifferentialReductionTests``) found the reduced search claiming
  /// and missing outcomes on. The first needs a sleep begun before a step that affects a timer,
  /// so that the clock's move can fire before it; the others, a timer fired before a job of a task
  /// later cancelled, which makes a different job of it the first since the delay (the one whose
  /// cancellation stops the run).
  @Test(
    "with an early firing among three tasks, the reduced search sees every outcome of the full one where it once missed some",
    arguments: [730_038_156, 730_078_247, 730_080_897] as [UInt64])
  func earlyFiringAmongThreeTasks(seed: UInt64) async {
    var configuration = SchedulerConfiguration(outsideWorldTimeout: .milliseconds(1))
    configuration.earlyTimerFirings = 1
    let program = GeneratedProgram(seed: seed, taskCount: 3, withCancellation: true, withStreams: true)
    let full = await AllOutcomes.of(DepthFirstSearch(), limit: 1_000, configuration: configuration) { await program.run(reporting: $0) }
    let reduced = await AllOutcomes.of(ReducedDepthFirstSearch(assumesNoUnseenSharing: true), configuration: configuration) {
      await program.run(reporting: $0)
    }
    #expect(full.complete && full.outcomes.count > 1)
    #expect(reduced.claimedEverySchedule)
    #expect(reduced.outcomes == full.outcomes, "\(program)")
    #expect(reduced.searchRuns < full.schedules)
  }

  @Test("on the catalogue's programs small enough to search fully, both searches see the same outcomes", arguments: ClassicBug.all, Spawn.allCases)
  func sameOutcomesOnCatalogue(bug: ClassicBug, spawn: Spawn) async {
    for program in [bug.buggy(spawning: spawn), bug.fixed(spawning: spawn)] {
      let everySchedule = await AllOutcomes.of(DepthFirstSearch(), limit: 1_000) { _ in try await program() }
      // Dining philosophers have too many schedules; the tests below cover them.
      guard everySchedule.complete else { continue }
      let oneAClass = await AllOutcomes.of(ReducedDepthFirstSearch()) { _ in try await program() }
      #expect(oneAClass.outcomes == everySchedule.outcomes)
      #expect(oneAClass.searchRuns <= everySchedule.schedules)
      // Assuming no unseen sharing, which some of them do share (a session flag behind a
      // `Mutex`): a search that claims every schedule must have seen every outcome.
      let assuming = await AllOutcomes.of(ReducedDepthFirstSearch(assumesNoUnseenSharing: true)) { _ in try await program() }
      #expect(!assuming.claimedEverySchedule || assuming.outcomes == everySchedule.outcomes, "\(bug.name)")
    }
  }

  @Test("finds every bug of the catalogue and passes every fixed twin", arguments: ClassicBug.all)
  func catalogue(bug: ClassicBug) async throws {
    let strategy = ExplorationStrategy.reduced(maxSchedules: bug.exhaustiveLimit)
    _ = try await requireFailure(ExplorationFailure.self) {
      try await explore(strategy, configuration: bug.configuration) { try await bug.buggy() }
    }
    // The catalogue's tasks share state only through what the scheduler sees.
    var assuming = bug.configuration
    assuming.assumesNoUnseenSharing = true
    let summary = try await explore(strategy, configuration: assuming) { try await bug.fixed() }
    #expect(ClassicBug.searchedAllItCould(summary) || bug.exhaustiveLimit != nil)
    // Without the assumption, it claims every schedule only where it took no pair as independent
    // unseen (checked where the search can end: the philosophers' twins have a limit).
    guard bug.exhaustiveLimit == nil else { return }
    let plain = try await explore(strategy, configuration: bug.configuration) { try await bug.fixed() }
    let check = try #require(plain.reductionCheck)
    #expect(plain.exploredEverySchedule == (check.assumedPairs + check.actorJobPairs == 0))
  }
}
