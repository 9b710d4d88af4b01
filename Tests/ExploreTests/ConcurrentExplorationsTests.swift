import Explore
import ExploreTesting
import Testing

/// What one exploration ended with, in a form that runs at the same time can be compared by.
private struct ExplorationResult: Equatable, Sendable, CustomStringConvertible {
  /// The failing schedule and summary, or `nil` for a pass.
  var failure: (schedule: String, summary: String)?
  var schedules: Int?
  /// For the timeout race: the outcomes seen across schedules.
  var outcomes: Set<String> = []

  static func == (a: ExplorationResult, b: ExplorationResult) -> Bool {
    a.failure?.schedule == b.failure?.schedule && a.failure?.summary == b.failure?.summary
      && a.schedules == b.schedules && a.outcomes == b.outcomes
  }

  var description: String {
    if let failure { return "failed with \(failure.schedule): \(failure.summary)" }
    return "passed \(schedules ?? 0) schedules, outcomes \(outcomes.sorted())"
  }
}

/// The programs of the view-model, debounce and timeout tests: main-actor code, plain tasks and
/// virtual sleeps, each buggy or fixed.
private enum Program: CaseIterable {
  case staleViewModel, fixedViewModel, staleDebounce, fixedDebounce, timeoutTie

  func explored() async -> ExplorationResult {
    let outcomes = TimeoutOutcomes()
    do {
      // The buggy programs fail, and the caller checks how.
      let summary = try await withExpectedFailures { () async throws(ExplorationFailure) -> ExplorationSummary in
        switch self {
        case .staleViewModel:
          return try await explore(.exhaustive) { try await typeTwoQueries(dropsStaleResponses: false) }
        case .fixedViewModel:
          // The first 2,000 of its 10,702 schedules: MainActorViewModelTests explores them all.
          return try await explore(.exhaustive(maxSchedules: 2000)) {
            try await typeTwoQueries(dropsStaleResponses: true)
          }
        case .staleDebounce:
          return try await explore(.exhaustive) {
            try await typeWithPause(.milliseconds(300), checksCancellation: false)
          }
        case .fixedDebounce:
          return try await explore(.exhaustive) {
            try await typeWithPause(.milliseconds(300), checksCancellation: true)
          }
        case .timeoutTie:
          return try await explore(.exhaustive) { try await raceWork(taking: .milliseconds(100), into: outcomes) }
        }
      }
      return ExplorationResult(schedules: summary.schedules, outcomes: outcomes.all)
    } catch {
      return ExplorationResult(failure: (error.schedule?.description ?? "none", error.summary))
    }
  }

  /// Whether the result is the one this program must give.
  func isExpected(_ result: ExplorationResult) -> Bool {
    switch self {
    case .staleViewModel: result.failure?.summary.contains("are stale for the query") == true
    case .staleDebounce: result.failure?.summary.contains("showed stale results") == true
    case .fixedViewModel, .fixedDebounce: result.failure == nil && (result.schedules ?? 0) > 1
    case .timeoutTie: result.failure == nil && result.outcomes.count == 2
    }
  }
}

@Suite("Explorations of main-actor code, plain tasks and sleeps running at the same time")
struct ConcurrentExplorationsTests {
  @Test("each of several concurrent explorations finds exactly what it finds alone")
  func concurrentExplorations() async throws {
    var alone: [Program: ExplorationResult] = [:]
    for program in Program.allCases {
      let result = await program.explored()
      #expect(program.isExpected(result), "\(program) alone: \(result)")
      alone[program] = result
    }

    let copies = 3
    let together = await withTaskGroup(of: (Program, ExplorationResult).self) { group in
      for _ in 0..<copies {
        for program in Program.allCases {
          group.addTask { (program, await program.explored()) }
        }
      }
      var results: [(Program, ExplorationResult)] = []
      for await result in group { results.append(result) }
      return results
    }
    #expect(together.count == copies * Program.allCases.count)
    for (program, result) in together {
      let expected = alone[program].map(String.init(describing:)) ?? "none"
      #expect(result == alone[program], "\(program) alongside the others: \(result); alone: \(expected)")
    }
  }
}
