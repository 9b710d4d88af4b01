import BugCatalogue
import EffectScheduler
@testable import Explore
import ExploreTesting
import Testing

// Serialized: its cases are CPU-bound searches, and run side by side they would starve the
// time-budgeted explorations of other suites. Its cases on three tasks, early timers and the
// catalogue are a suite of their own (``ReducedSearchMoreTests``), which runs beside this one.
@Suite("Exhaustive search with partial-order reduction", .serialized)
struct ReducedSearchTests {
  /// Programs are compared in ten batches of a hundred.
  @Test(
    "on 1,000 generated programs of actors and tasks, the reduced search sees exactly the outcomes of the full one, never in more schedules",
    arguments: 0..<10)
  func sameOutcomesAsFullSearch(batch: UInt64) async {
    // Programs with more than 60 schedules would slow the suite, and starve its time-budgeted
    // tests; the next seed is taken instead.
    let (full, reduced) = await Self.compare(100, programsFrom: batch * 1_000_000, taskCount: 2, fullLimit: 60)
    #expect(reduced < full)
  }

  /// Cancellation in all its forms: a task cancelling another, a group cancelled while its
  /// children run, sleeps cut short, and tasks that read their flag.
  @Test(
    "on 500 generated programs with cancellation, the reduced search sees exactly the outcomes of the full one",
    arguments: 0..<5)
  func sameOutcomesWithCancellation(batch: UInt64) async {
    _ = await Self.compare(100, programsFrom: 90_000_000 + batch * 1_000_000, taskCount: 2, fullLimit: 60, withCancellation: true)
  }

  /// Tasks yielding into a stream no actor guards, under each buffering policy: which elements
  /// the root drains depends on the order of the yields.
  @Test(
    "on 300 generated programs with a stream, the reduced search sees exactly the outcomes of the full one",
    arguments: 0..<3)
  func sameOutcomesWithStreams(batch: UInt64) async {
    _ = await Self.compare(100, programsFrom: 130_000_000 + batch * 1_000_000, taskCount: 2, fullLimit: 60, withCancellation: batch == 2, withStreams: true)
  }

  /// Tasks that run an `async let` child (awaited, or left behind and so cancelled), a nested
  /// group (cancelled or not), a step on the main actor, or a lost update behind an `EffectMutex`,
  /// with a timer that may fire early. Those small enough for this check have no group and no
  /// lock: the next check has only those, and the by-hand differential check
  /// (``DifferentialReductionTests``) runs larger ones.
  @Test("on 20 small generated programs with async let and the main actor, the reduced search sees exactly the outcomes of the full one")
  func sameOutcomesWithStructure() async {
    var configuration = SchedulerConfiguration(outsideWorldTimeout: .milliseconds(1))
    configuration.earlyTimerFirings = 1
    _ = await Self.compare(
      20, programsFrom: 160_000_000, taskCount: 2, fullLimit: 300, configuration: configuration, withStructure: true)
  }

  /// Nested groups and lost updates behind an `EffectMutex`, in programs small enough for a full
  /// search of at most 1,000 schedules.
  @Test("on 8 generated programs with nested groups and drop-in locks, the reduced search sees exactly the outcomes of the full one")
  func sameOutcomesWithGroupsAndLocks() async {
    _ = await Self.compare(8, programsFrom: 170_000_000, taskCount: 2, fullLimit: 1_000, withStructure: true, groupsAndLocksOnly: true)
  }

  /// A program the differential check found with fresh seeds: two plain tasks yield to a stream
  /// and sleep until the same instant, then one cancels the other, which reads `isCancelled`.
  /// Where the second sleeper began first, its timer fires first when the clock gets there; the
  /// other's, due then too, fires only because nothing else is ready, or at the strategy's pick
  /// before the first sleeper's step. That firing orders nothing, so the first sleeper's step
  /// races with the cancellation, and the reduced search fires the timer there.
  @Test("a timer due at the instant the clock is at, fired once nothing else is ready, could have fired sooner: the reduced search sees every outcome")
  func sameInstantFiringOrdersNothing() async {
    let (seed, kind) = (UInt64(745_001_245), 4)
    let configuration = DifferentialReductionTests.configuration(kind: kind)
    let program = DifferentialReductionTests.program(kind: kind, seed: seed, taskCount: 2)
    let full = await AllOutcomes.of(DepthFirstSearch(), limit: 1_000, configuration: configuration) { await program.run(reporting: $0) }
    #expect(full.complete && full.outcomes.count == 4, "\(full.outcomes)")
    for assumes in [false, true] {
      let reduced = await AllOutcomes.of(ReducedDepthFirstSearch(assumesNoUnseenSharing: assumes), configuration: configuration) {
        await program.run(reporting: $0)
      }
      #expect(reduced.outcomes == full.outcomes, "\(program)")
    }
  }

  /// Compares both searches on `count` generated programs of `taskCount` tasks, seeds from
  /// `firstSeed` on, skipping those with more than `fullLimit` schedules; returns the schedules
  /// each search ran in all, the reduced search's probe runs (``ReductionCheck``) not counted. With `fewerSchedules`, the reduced search must never run more.
  static func compare(
    _ count: Int, programsFrom firstSeed: UInt64, taskCount: Int, fullLimit: Int,
    configuration: SchedulerConfiguration = SchedulerConfiguration(outsideWorldTimeout: .milliseconds(1)), fewerSchedules: Bool = true,
    withCancellation: Bool = false, withStreams: Bool = false, withStructure: Bool = false, groupsAndLocksOnly: Bool = false
  ) async -> (full: Int, reduced: Int) {
    var compared = 0
    var seed = firstSeed
    var full = 0
    var reduced = 0
    while compared < count {
      seed += 1
      let program = GeneratedProgram(
        seed: seed, taskCount: taskCount, withCancellation: withCancellation, withStreams: withStreams, withStructure: withStructure,
        groupsAndLocksOnly: groupsAndLocksOnly)
      let everySchedule = await AllOutcomes.of(DepthFirstSearch(), limit: fullLimit, configuration: configuration) {
        await program.run(reporting: $0)
      }
      guard everySchedule.complete else { continue }
      compared += 1
      // Every other program is searched assuming no unseen sharing, which the programs' tasks
      // share none of: the relation then drops its guesses at unseen state.
      let oneAClass = await AllOutcomes.of(ReducedDepthFirstSearch(assumesNoUnseenSharing: seed % 2 == 0), configuration: configuration) {
        await program.run(reporting: $0)
      }
      #expect(oneAClass.outcomes == everySchedule.outcomes, "\(program)")
      if fewerSchedules { #expect(oneAClass.searchRuns <= everySchedule.schedules, "\(program)") }
      full += everySchedule.schedules
      reduced += oneAClass.searchRuns
    }
    return (full, reduced)
  }
}
