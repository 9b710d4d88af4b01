import BugCatalogue
@testable import Explore
import ExploreTesting
import Testing

@Suite("Exhaustive search with partial-order reduction")
struct ReducedSearchTests {
  @Test("on 1,000 generated programs of actors and tasks, the reduced search sees exactly the outcomes of the full one, never in more schedules")
  func sameOutcomesAsFullSearch() async {
    var full = 0
    var reduced = 0
    for seed in UInt64(1)...1_000 {
      let program = GeneratedProgram(seed: seed)
      let everySchedule = await AllOutcomes.of(DepthFirstOracle()) { await program.run(reporting: $0) }
      let oneAClass = await AllOutcomes.of(ReducedDepthFirstOracle()) { await program.run(reporting: $0) }
      #expect(oneAClass.outcomes == everySchedule.outcomes, "\(program)")
      #expect(oneAClass.schedules <= everySchedule.schedules, "\(program)")
      full += everySchedule.schedules
      reduced += oneAClass.schedules
    }
    #expect(reduced < full)
  }

  @Test("on the catalogue's programs small enough to search fully, both searches see the same outcomes", arguments: ClassicBug.all, Spawn.allCases)
  func sameOutcomesOnCatalogue(bug: ClassicBug, spawn: Spawn) async {
    for program in [bug.buggy(spawning: spawn), bug.fixed(spawning: spawn)] {
      let everySchedule = await AllOutcomes.of(DepthFirstOracle(), limit: 3_000) { _ in try await program() }
      // Dining philosophers have too many schedules; the tests below cover them.
      guard everySchedule.complete else { continue }
      let oneAClass = await AllOutcomes.of(ReducedDepthFirstOracle()) { _ in try await program() }
      #expect(oneAClass.outcomes == everySchedule.outcomes)
      #expect(oneAClass.schedules <= everySchedule.schedules)
    }
  }

  @Test("finds every bug of the catalogue and passes every fixed twin", arguments: ClassicBug.all)
  func catalogue(bug: ClassicBug) async throws {
    let strategy = ExplorationStrategy.reduced(maxSchedules: bug.exhaustiveLimit)
    _ = try await requireFailure(ExplorationFailure.self) {
      try await explore(strategy, configuration: bug.configuration) { try await bug.buggy() }
    }
    let summary = try await explore(strategy, configuration: bug.configuration) { try await bug.fixed() }
    #expect(summary.exploredEverySchedule || bug.exhaustiveLimit != nil)
  }

  @Test("three dining philosophers: every class of the fixed dinner is tried")
  func diningPhilosophers() async throws {
    let summary = try await explore(.reduced(), configuration: ClassicBug.diningPhilosophers3.configuration) {
      try await ClassicBug.diningPhilosophers3.fixed()
    }
    #expect(summary.exploredEverySchedule)
    #expect(summary.strategy.contains("partial-order reduction"))
  }
}
