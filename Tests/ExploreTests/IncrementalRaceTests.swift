import BugCatalogue
import EffectScheduler
@testable import Explore
import Testing

/// The reduced search analyses each run from the first step whose facts differ from the run
/// before (``RacePass``): checked against a fresh analysis of every run, on generated programs of
/// every kind the differential tests use and on the catalogue's fixed programs.
// Serialized: its cases are CPU-bound searches.
@Suite("Incremental race search", .serialized)
struct IncrementalRaceTests {
  /// Runs `program` under a reduced search that checks its race search after every run, and
  /// returns what the check found.
  private static func check(
    limit: Int = 2_000, earlyTimerFirings: Int = 0, _ program: @escaping @Sendable (AllOutcomes.Report) async throws -> Void
  ) async -> (runs: Int, resumed: Int, mismatches: Int) {
    var search = ReducedDepthFirstSearch(assumesNoUnseenSharing: true)
    search.checksIncrementalRaces = true
    var configuration = SchedulerConfiguration(outsideWorldTimeout: .milliseconds(1))
    configuration.earlyTimerFirings = earlyTimerFirings
    let all = await AllOutcomes.of(search, limit: limit, configuration: configuration, program)
    return all.incrementalCheck ?? (0, 0, 0)
  }

  @Test("on generated programs with cancellation, streams, groups and locks, each run's races are those a fresh search finds")
  func generatedPrograms() async {
    var runs = 0
    var resumed = 0
    for seed in UInt64(41_000)..<41_060 {
      let program = GeneratedProgram(
        seed: seed, taskCount: 2 + Int(seed % 2), withCancellation: seed % 2 == 0, withStreams: seed % 3 == 0,
        withStructure: seed % 5 == 0, groupsAndLocksOnly: seed % 10 == 0)
      let found = await Self.check(limit: 400) { await program.run(reporting: $0) }
      #expect(found.mismatches == 0, "\(program)")
      runs += found.runs
      resumed += found.resumed
    }
    // The check means something only if most runs went on from where they parted.
    #expect(runs > 1_000)
    #expect(resumed * 2 > runs, "\(resumed) of \(runs) runs resumed")
  }

  @Test("with a timer that may fire early, where a move of the clock is no barrier, each run's races are those a fresh search finds")
  func earlyTimers() async {
    var resumed = 0
    for seed in UInt64(42_000)..<42_040 {
      let program = GeneratedProgram(seed: seed, taskCount: 2 + Int(seed % 2), withCancellation: seed % 2 == 0, withStreams: seed % 3 == 0)
      let found = await Self.check(limit: 300, earlyTimerFirings: 1) { await program.run(reporting: $0) }
      #expect(found.mismatches == 0, "\(program)")
      resumed += found.resumed
    }
    #expect(resumed > 500)
  }

  /// A search that ends gives its workspace back for the next (``ReductionWorkspace``): one that
  /// starts from the workspace of a wider search, with more threads and longer runs, finds what
  /// it found before, in as many runs, with every run's races those a fresh search finds.
  @Test("a search that starts from the workspace a wider search gave back finds what it found before")
  func workspaceGivenBack() async {
    let small = GeneratedProgram(seed: 41_010, taskCount: 2, withCancellation: true, withStreams: false)
    let wide = GeneratedProgram(seed: 41_000, taskCount: 3, withCancellation: false, withStreams: false)
    // Tests of other suites may take the workspace in between; each search still starts from
    // one a search gave back, or a new one.
    func search(_ program: GeneratedProgram) async -> AllOutcomes {
      var search = ReducedDepthFirstSearch(assumesNoUnseenSharing: true)
      search.checksIncrementalRaces = true
      return await AllOutcomes.of(search, limit: 2_000, configuration: SchedulerConfiguration(outsideWorldTimeout: .milliseconds(1))) {
        await program.run(reporting: $0)
      }
    }
    let before = await search(small)
    let wider = await search(wide)
    let after = await search(small)
    #expect(before.complete && wider.complete && after.complete, "\(before.schedules), \(wider.schedules), \(after.schedules)")
    #expect(after.outcomes == before.outcomes)
    #expect(after.schedules == before.schedules)
    #expect(after.incrementalCheck?.mismatches == 0 && wider.incrementalCheck?.mismatches == 0)
  }

  /// A workspace grown by long runs is let go rather than kept for the process's life.
  @Test("a workspace grown past the steps kept is not kept for the next search")
  func largeWorkspaceLetGo() {
    var large = ReductionWorkspace()
    large.analysed.points.reserveCapacity(100_000)
    ReductionWorkspace.giveBack(&large)
    #expect(large.analysed.points.capacity < 100_000, "the workspace given back is left empty in its place")
    // Other tests may give back and take workspaces meanwhile, but none as large as that one.
    var taken: [ReductionWorkspace] = []
    for _ in 0..<8 { taken.append(.take()) }
    #expect(taken.allSatisfy { $0.analysed.points.capacity < 100_000 })
    for index in taken.indices { ReductionWorkspace.giveBack(&taken[index]) }
  }

  @Test("on the catalogue's fixed programs, each run's races are those a fresh search finds", arguments: ClassicBug.all)
  func catalogue(bug: ClassicBug) async {
    let found = await Self.check(limit: 300) { _ in try await bug.fixed() }
    #expect(found.mismatches == 0)
  }
}
