import Foundation
@testable import EffectScheduler
@testable import Explore
import Synchronization
import Testing

/// Runs every schedule a search offers, without stopping at failures, and collects the distinct
/// outcomes: what the program reported at its end, the error it threw, or how its run failed.
/// Runs cut short, which a search does not judge, have none.
struct AllOutcomes: Sendable {
  /// The distinct outcomes.
  var outcomes: Set<String> = []
  /// How many schedules ran.
  var schedules = 0
  /// Of the schedules, those the search counts: a sharded search's runs that another shard
  /// counts are left out (``ExplorationSearch/countedElsewhere``).
  var counted = 0
  /// Of the schedules, those cut short (``SchedulerError/Reason/cutShort(step:)``).
  var cut = 0

  /// Where a program reports its final state.
  final class Report: Sendable {
    private let state = Mutex<String?>(nil)

    /// Records the program's final state.
    func finalState(_ text: String) { state.withLock { $0 = text } }

    fileprivate func take() -> String? {
      state.withLock { text in
        defer { text = nil }
        return text
      }
    }
  }

  /// The trace of the first run that gave each outcome, when asked for.
  var traces: [String: String] = [:]
  /// Whether the search ran out of schedules before the limit.
  var complete = true
  /// Of the schedules, the probe runs of a reduced search (``ReductionCheck/swapsTried``).
  var probes = 0
  /// Whether the search claimed it tried every schedule (``ExplorationSearch/exhaustedSchedules``).
  var claimedEverySchedule = false
  /// For a reduced search, how it checked what it took as independent unseen.
  var check: ReductionCheck?
  /// For a reduced search asked to check its race search against a fresh one
  /// (``ReducedDepthFirstSearch/checksIncrementalRaces``), what the check found.
  var incrementalCheck: (runs: Int, resumed: Int, mismatches: Int)?

  /// The schedules less the probe runs: the search's own.
  var searchRuns: Int { schedules - probes }

  /// The outcomes of every schedule `search` tries of `program`, which reports to its argument,
  /// up to `limit` schedules.
  static func of(
    _ search: some ExplorationSearch & Sendable, limit: Int = .max,
    // Nothing comes from outside in the programs compared, so a stuck run is reported at once.
    configuration: SchedulerConfiguration = SchedulerConfiguration(outsideWorldTimeout: .milliseconds(1)),
    keepingTraces: Bool = false,
    _ program: @escaping @Sendable (Report) async throws -> Void
  ) async -> AllOutcomes {
    await onDedicatedThread {
      var search = search
      var runner = SequentialRunner()
      var all = AllOutcomes()
      let report = Report()
      withUnsafeMutablePointer(to: &search) { pointer in
        let reference = StrategyReference(search: pointer)
        while pointer.pointee.beginRun() {
          guard all.schedules < limit else {
            all.complete = false
            break
          }
          let outcome = runner.run(strategy: reference, configuration: configuration) { try await program(report) }
          pointer.pointee.runDidEnd(trace: outcome.trace)
          all.schedules += 1
          if !pointer.pointee.countedElsewhere { all.counted += 1 }
          let state = report.take()
          // A run cut short is not judged (`SchedulerError.Reason.cutShort`): it has no outcome.
          if outcome.record.time.cutAtStep != nil {
            all.cut += 1
          } else {
            let described = describe(outcome, state: state)
            if keepingTraces, !all.outcomes.contains(described) { all.traces[described] = "\(outcome.schedule)\n\(outcome.trace)" }
            all.outcomes.insert(described)
          }
          if keepingTraces, ProcessInfo.processInfo.environment["EXPLORE_DIFFERENTIAL_RUNS"] != nil {
            print("run \(all.schedules): \(outcome.schedule) cut \(outcome.record.time.cutAtStep.map(String.init) ?? "-") \(state ?? "")\n\(outcome.trace)")
          }
        }
        all.check = pointer.pointee.reductionCheck
        all.incrementalCheck = (pointer.pointee as? ReducedDepthFirstSearch).map(\.incrementalCheck)
        all.probes = all.check?.swapsTried ?? 0
        all.claimedEverySchedule = pointer.pointee.exhaustedSchedules
        (pointer.pointee as? any SplittableSearch)?.searchDidStop()
      }
      return all
    }
  }

  /// The outcomes of every schedule a reduced search tries of `program` on `searchers` searchers
  /// that share its choice points (``SharedReducedTree``), each on a thread of its own and up to
  /// `limit` schedules, assuming no unseen sharing, so that claims are made.
  static func ofSharedSearch(
    searchers: Int, limit: Int = .max,
    configuration: SchedulerConfiguration = SchedulerConfiguration(outsideWorldTimeout: .milliseconds(1)),
    _ program: @escaping @Sendable (Report) async throws -> Void
  ) async -> AllOutcomes {
    let tree = SharedReducedTree()
    return await withTaskGroup(of: AllOutcomes.self) { group in
      for _ in 0..<searchers {
        group.addTask {
          await of(ReducedDepthFirstSearch(sharing: tree, assumesNoUnseenSharing: true), limit: limit, configuration: configuration, program)
        }
      }
      var all = AllOutcomes()
      all.claimedEverySchedule = true
      var check = ReductionCheck()
      for await part in group {
        all.outcomes.formUnion(part.outcomes)
        all.schedules += part.schedules
        all.counted += part.counted
        all.cut += part.cut
        all.probes += part.probes
        all.complete = all.complete && part.complete
        all.claimedEverySchedule = all.claimedEverySchedule && part.claimedEverySchedule
        if let partCheck = part.check { check.add(partCheck) }
      }
      all.check = check
      return all
    }
  }

  /// Expects the reduced search of `program` to see every outcome the full search sees, the full
  /// one running to its end within `limit` schedules; `label` names the case in a failure.
  static func expectReducedSearchSeesEverything(
    limit: Int, _ label: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ program: @escaping @Sendable (Report) async throws -> Void
  ) async {
    let everySchedule = await of(DepthFirstSearch(), limit: limit, program)
    let oneAClass = await of(ReducedDepthFirstSearch(), program)
    #expect(everySchedule.complete, sourceLocation: sourceLocation)
    #expect(
      oneAClass.outcomes == everySchedule.outcomes,
      "\(label): full \(everySchedule.schedules) schedules, reduced \(oneAClass.schedules)", sourceLocation: sourceLocation)
    #expect(oneAClass.searchRuns <= everySchedule.schedules, sourceLocation: sourceLocation)
  }

  private static func describe(_ outcome: RunOutcome<Void>, state: String?) -> String {
    if let failure = outcome.failure {
      switch failure.reason {
      case .deadlock, .stalled: return "stuck"
      default: return "run failed: \(failure.reason)"
      }
    }
    switch outcome.result {
    case .success?: return "finished: \(state ?? "-")"
    case .failure(let error)?: return "threw: \(error)"
    case nil: return "no result"
    }
  }
}
