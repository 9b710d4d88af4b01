import BugCatalogue
import EffectScheduler
@testable import Explore
import Foundation
import Testing

/// The long differential check of the reduction, run by hand before its figures are quoted:
/// `EXPLORE_DIFFERENTIAL=200 swift test --filter DifferentialReduction` compares the outcome sets
/// of the reduced and the full search on 200 generated programs of each of seven kinds (50 of the fourth; plain;
/// with cancellation; with cancellation and streams; three tasks with both and an early timer
/// firing; two tasks with both and an early timer firing; two tasks with cancellation, an early
/// timer firing and one of an `async let`, a nested group, a main-actor step or a lost update
/// behind an `EffectMutex`, of at most 1,000 full schedules; the same with only nested groups and
/// lost updates, and no other cancellation), and prints, for each kind, how many programs the reduced search claimed
/// complete as it is, and how many it claimed complete assuming no unseen sharing
/// (``ReductionCheck/assumesNoUnseenSharing``, true of these programs, and a search of its own,
/// since the assumption drops the relation's guesses at unseen state), or refused, and whether it
/// saw every outcome (programs with more than 60 full schedules are passed over, as in the suite;
/// three-task programs only when of at most seven operations, one a sleep, and of at most 1,000
/// full schedules). A claim, either way, that misses an
/// outcome fails the test. `EXPLORE_DIFFERENTIAL_VERBOSE=1` prints each seed as it starts, and
/// `EXPLORE_DIFFERENTIAL_KINDS=0,1,2` runs only the kinds listed (the three-task programs leave
/// their cut runs' tasks behind, about 8 MB a second of memory), and
/// `EXPLORE_DIFFERENTIAL_OFFSET=5000000` starts each kind's seeds that much later, for programs
/// no run before compared. The
/// suite's own, shorter checks are in ``ReducedSearchTests``.
@Suite(
  "Differential check of the reduction (by hand)", .serialized,
  .enabled(if: ProcessInfo.processInfo.environment["EXPLORE_DIFFERENTIAL"] != nil))
struct DifferentialReductionTests {
  @Test(arguments: [(0, 2), (1, 2), (2, 2), (3, 3), (4, 2), (5, 2), (6, 2)]) func compare(kind: Int, taskCount: Int) async {
    // `EXPLORE_DIFFERENTIAL_KINDS=0,1,2` leaves the others out.
    if let kinds = ProcessInfo.processInfo.environment["EXPLORE_DIFFERENTIAL_KINDS"], !kinds.split(separator: ",").contains("\(kind)"[...]) {
      return
    }
    let configuration = Self.configuration(kind: kind)
    var counts: [String: Int] = [:]
    var reasons: [String: Int] = [:]
    var compared = 0
    // Of the programs compared, how many have each kind of operation.
    var operations: [String: Int] = [:]
    var seed: UInt64 = 700_000_000 + UInt64(kind) * 10_000_000 + Self.seedOffset
    let programs = Int(ProcessInfo.processInfo.environment["EXPLORE_DIFFERENTIAL"] ?? "") ?? 700
    // The three-task programs' cut runs leave their tasks behind: 200 of them grew past 24 GB
    // (less now that a cut run's scheduler lets go of its records).
    let target = taskCount == 3 ? min(programs, 50) : programs
    while compared < target {
      seed += 1
      let program = Self.program(kind: kind, seed: seed, taskCount: taskCount)
      // Three tasks of a few operations each are mostly past any full search's reach: only those
      // of at most seven operations in all, one of them a sleep an early timer can cut, are run.
      if taskCount == 3, !program.isSmallAndSleeps(atMost: 7) { continue }
      if ProcessInfo.processInfo.environment["EXPLORE_DIFFERENTIAL_VERBOSE"] != nil {
        FileHandle.standardError.write(Data("differential: seed \(seed)\n".utf8))
      }
      let full = await AllOutcomes.of(DepthFirstSearch(), limit: taskCount == 3 || kind >= 5 ? 1_000 : 60, configuration: configuration) {
        await program.run(reporting: $0)
      }
      guard full.complete else { continue }
      compared += 1
      for operation in Set(program.tasks.joined().map { "\($0)".prefix { $0 != "(" } }) { operations[String(operation), default: 0] += 1 }
      // The search as it is, and assuming no unseen sharing, as the generated programs' tasks
      // share only what the scheduler sees: the assumption also drops the relation's guesses at
      // unseen state, so each is a search of its own.
      for assumes in [false, true] {
        let reduced = await AllOutcomes.of(ReducedDepthFirstSearch(assumesNoUnseenSharing: assumes), limit: 5_000, configuration: configuration) {
          await program.run(reporting: $0)
        }
        if !reduced.complete {
          FileHandle.standardError.write(Data("differential: the reduced search of seed \(seed) ran past 5,000 schedules (full: \(full.schedules))\n".utf8))
        }
        let key = (assumes ? "assuming: " : "as it is: ") + (reduced.claimedEverySchedule ? "claimed" : "refused")
          + (reduced.outcomes == full.outcomes ? ", same" : ", missed")
        counts[key, default: 0] += 1
        #expect(!reduced.claimedEverySchedule || reduced.outcomes == full.outcomes, "\(program)")
        if !reduced.claimedEverySchedule, let check = reduced.check {
          let reason =
            if !reduced.complete { "stopped at 5,000 schedules" }
            else if check.swapsChanged > 0 { "a swap changed what followed" }
            else if check.unchecked > 0 { "pairs left unchecked" }
            else { "pairs taken as independent unseen" }
          reasons[(assumes ? "assuming: " : "as it is: ") + reason, default: 0] += 1
        }
      }
    }
    print("differential, kind \(kind), \(taskCount) tasks: \(compared) programs, \(counts.sorted { $0.key < $1.key }), refused: \(reasons)")
    print("  programs with each operation: \(operations.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
  }

  /// How much later than usual each kind's seeds start (`EXPLORE_DIFFERENTIAL_OFFSET`, at most 9
  /// million so that the kinds' seeds stay apart; a tenth of it for the shards and the shared
  /// tree, whose programs' seeds are a million apart).
  static var seedOffset: UInt64 {
    min(UInt64(ProcessInfo.processInfo.environment["EXPLORE_DIFFERENTIAL_OFFSET"] ?? "") ?? 0, 9_000_000)
  }

  /// The generated program of a kind of the check above.
  static func program(kind: Int, seed: UInt64, taskCount: Int) -> GeneratedProgram {
    GeneratedProgram(
      seed: seed, taskCount: taskCount, withCancellation: kind >= 1 && kind != 6, withStreams: (2...4).contains(kind), withStructure: kind >= 5,
      groupsAndLocksOnly: kind == 6)
  }

  /// The scheduler's configuration for a kind of the check above: from the fourth kind on, a
  /// timer may fire early.
  static func configuration(kind: Int) -> SchedulerConfiguration {
    var configuration = SchedulerConfiguration(outsideWorldTimeout: .milliseconds(1))
    if kind >= 3 { configuration.earlyTimerFirings = 1 }
    return configuration
  }

  /// The shards of a reduced search, together, against the full search: 3 × 100 programs (two
  /// tasks with cancellation and streams, split in 2 and in 3; three tasks, split in 4), and 100
  /// of two tasks with an `async let`, a nested group, a main-actor step or a lost update behind
  /// an `EffectMutex`, split in 2.
  @Test(arguments: [(2, 2), (2, 3), (3, 4), (2, -2)]) func shards(taskCount: Int, count: Int) async {
    // A negative count asks for the programs with structure, in that many shards.
    let (count, withStructure) = (abs(count), count < 0)
    let configuration = SchedulerConfiguration(outsideWorldTimeout: .milliseconds(1))
    var compared = 0
    var seed: UInt64 = 800_000_000 + UInt64(taskCount * 10 + count) * 1_000_000 + Self.seedOffset / 10
    var claimedAndMissed = 0
    while compared < 100 {
      seed += 1
      let program = GeneratedProgram(
        seed: seed, taskCount: taskCount, withCancellation: seed % 2 == 0, withStreams: !withStructure && seed % 3 == 0, withStructure: withStructure)
      let full = await AllOutcomes.of(DepthFirstSearch(), limit: 400, configuration: configuration) { await program.run(reporting: $0) }
      guard full.complete else { continue }
      compared += 1
      var outcomes: Set<String> = []
      var claimed = true
      for index in 1...count {
        let part = await AllOutcomes.of(
          ReducedDepthFirstSearch(shard: Shard(index: index, count: count), assumesNoUnseenSharing: true), configuration: configuration
        ) {
          await program.run(reporting: $0)
        }
        outcomes.formUnion(part.outcomes)
        claimed = claimed && part.claimedEverySchedule
      }
      if claimed, outcomes != full.outcomes { claimedAndMissed += 1 }
      #expect(!claimed || outcomes == full.outcomes, "\(program)")
    }
    print("differential, shards: \(taskCount) tasks\(withStructure ? " with structure" : "") in \(count) shards: \(compared) programs, \(claimedAndMissed) claimed and missed")
  }
}

extension DifferentialReductionTests {
  /// A reduced search on two searchers that share its choice points (``SharedReducedTree``)
  /// against the full search: 300 programs of two tasks with cancellation and streams, and 300
  /// with structure (an `async let`, a nested group, a main-actor step or a lost update behind an
  /// `EffectMutex`), each with an early timer firing where the program sleeps.
  @Test(arguments: [false, true]) func sharedTree(withStructure: Bool) async {
    var configuration = SchedulerConfiguration(outsideWorldTimeout: .milliseconds(1))
    configuration.earlyTimerFirings = 1
    let programs = Int(ProcessInfo.processInfo.environment["EXPLORE_DIFFERENTIAL"] ?? "") ?? 300
    var compared = 0
    var claimed = 0
    var claimedAndMissed = 0
    var seed: UInt64 = 900_000_000 + (withStructure ? 1_000_000 : 0) + Self.seedOffset / 10
    while compared < programs {
      seed += 1
      let program = GeneratedProgram(
        seed: seed, taskCount: 2, withCancellation: seed % 2 == 0, withStreams: !withStructure && seed % 3 == 0, withStructure: withStructure)
      let full = await AllOutcomes.of(DepthFirstSearch(), limit: 1_000, configuration: configuration) { await program.run(reporting: $0) }
      guard full.complete else { continue }
      compared += 1
      let shared = await AllOutcomes.ofSharedSearch(searchers: 2, limit: 5_000, configuration: configuration) { await program.run(reporting: $0) }
      if shared.claimedEverySchedule { claimed += 1 }
      if shared.claimedEverySchedule, shared.outcomes != full.outcomes { claimedAndMissed += 1 }
      #expect(!shared.claimedEverySchedule || shared.outcomes == full.outcomes, "\(program)")
    }
    print("differential, two searchers sharing a tree\(withStructure ? ", with structure" : ""): \(compared) programs, \(claimed) claimed, \(claimedAndMissed) claimed and missed")
  }
}

/// One program of the differential check, by seed: `EXPLORE_DIFFERENTIAL_SEED=730038156
/// EXPLORE_DIFFERENTIAL_TASKS=3 EXPLORE_DIFFERENTIAL_KIND=3 swift test --filter DifferentialSeedTests`
/// prints the outcomes each search saw, with the schedule and trace of each outcome only the full
/// search saw; `EXPLORE_DIFFERENTIAL_RUNS=1` also prints every run's schedule and outcome.
@Suite(
  "Differential check of one program (by hand)",
  .enabled(if: ProcessInfo.processInfo.environment["EXPLORE_DIFFERENTIAL_SEED"] != nil))
struct DifferentialSeedTests {
  @Test func compareOne() async {
    let environment = ProcessInfo.processInfo.environment
    let seed = UInt64(environment["EXPLORE_DIFFERENTIAL_SEED"] ?? "") ?? 0
    let taskCount = Int(environment["EXPLORE_DIFFERENTIAL_TASKS"] ?? "") ?? 2
    let kind = Int(environment["EXPLORE_DIFFERENTIAL_KIND"] ?? "") ?? 0
    let configuration = DifferentialReductionTests.configuration(kind: kind)
    let program = DifferentialReductionTests.program(kind: kind, seed: seed, taskCount: taskCount)
    let full = await AllOutcomes.of(DepthFirstSearch(), limit: 5_000, configuration: configuration, keepingTraces: true) { await program.run(reporting: $0) }
    let reduced = await AllOutcomes.of(ReducedDepthFirstSearch(assumesNoUnseenSharing: true), limit: 5_000, configuration: configuration, keepingTraces: true) {
      await program.run(reporting: $0)
    }
    print("\(program)\nfull: \(full.schedules) schedules, reduced: \(reduced.schedules) (\(reduced.probes) probes), claimed \(reduced.claimedEverySchedule)")
    for outcome in full.outcomes.sorted() {
      print("\(reduced.outcomes.contains(outcome) ? "  both" : "  FULL ONLY") \(outcome)")
      if !reduced.outcomes.contains(outcome) { print(full.traces[outcome] ?? "") }
    }
    for outcome in reduced.outcomes.subtracting(full.outcomes).sorted() { print("  REDUCED ONLY \(outcome)") }
    #expect(!reduced.claimedEverySchedule || reduced.outcomes == full.outcomes)
  }
}
