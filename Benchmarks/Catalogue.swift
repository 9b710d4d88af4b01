import BugCatalogue
import Dispatch
import Explore

/// The figure table of issue 9: for each bug of the classic catalogue (its buggy program, spawning
/// with `Task.effect`), how many schedules each strategy runs before the first failing one, and
/// how many preemptions that schedule has.
///
/// Every strategy runs with a budget, so that a bug one of them cannot reach costs a bounded time:
/// the table says `not found in N` then. The default portfolio runs without its time budget, so
/// that its figures depend on the schedule count alone and not on how loaded the machine is.
func benchmarkCatalogue() async {
  let depthFirstBudget = 200_000
  let samplingBudget = 1_000
  let strategies: [(name: String, strategy: ExplorationStrategy)] = [
    (".exhaustive", .exhaustive(maxSchedules: depthFirstBudget)),
    (".reduced", .reduced(maxSchedules: depthFirstBudget)),
    (".preemptionBounded(2)", .preemptionBounded(2, maxSchedules: depthFirstBudget)),
    (".random()", .random(schedules: samplingBudget)),
    (".pct(depth: 3)", .pct(depth: 3, schedules: samplingBudget)),
    (".default", .default),
  ]
  print("\nSchedules to the first failure, classic catalogue, buggy programs spawning with Task.effect")
  print("(budgets: \(depthFirstBudget) schedules depth first, \(samplingBudget) random and PCT, the default portfolio's")
  print("20000 schedules without its time limit; in parentheses, the failing schedule's preemptions, and for")
  print(".default the part that found it):\n")
  print("| bug | " + strategies.map(\.name).joined(separator: " | ") + " |")
  print("|---|" + String(repeating: "--:|", count: strategies.count))
  let start = DispatchTime.now().uptimeNanoseconds
  for bug in ClassicBug.all {
    var cells: [String] = []
    for (_, strategy) in strategies {
      cells.append(await schedulesToFailure(bug, strategy))
    }
    print("| \(bug.name) | " + cells.joined(separator: " | ") + " |")
  }
  let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  print("\nthe whole table took \(format(seconds)) s")
}

/// The table's cell for `bug` under `strategy`: the number of the first failing schedule and its
/// preemptions, or why there is none.
private func schedulesToFailure(_ bug: ClassicBug, _ strategy: ExplorationStrategy) async -> String {
  var configuration = bug.configuration
  configuration.portfolioBudget.time = nil
  // The search for a schedule with fewer preemptions runs after the first failure and keeps its
  // number: it would only add time.
  configuration.minimizationBudget = 0
  do {
    let summary = try await explore(strategy, configuration: configuration, bug.buggy(spawning: .effect))
    if summary.exploredEverySchedule { return "none in all \(summary.schedules)" }
    if summary.everyScheduleWithPreemptions != nil { return "none in all \(summary.schedules) within the bound" }
    return "not found in \(summary.schedules)"
  } catch {
    let number = error.scheduleNumber.map { "\($0)" } ?? "FIFO probe"
    let notes = [error.preemptions.map { "\($0.found)" }, error.portfolioPart.map { "\($0)" }].compactMap { $0 }
    return notes.isEmpty ? number : "\(number) (\(notes.joined(separator: ", ")))"
  }
}

/// For each fixed twin of the catalogue that an exhaustive search finishes, its schedules with
/// `Task.effect` and with plain `Task {}`: plain tasks are adopted, so the counts are equal.
func benchmarkSpawnCounts() async throws {
  print("\nSchedules of each fixed twin searched in full, spawning with Task.effect and with Task {}:\n")
  print("| fixed twin | Task.effect | Task {} |")
  print("|---|--:|--:|")
  for bug in ClassicBug.all where bug.exhaustiveLimit == nil {
    var counts: [String] = []
    for spawn in Spawn.allCases {
      let summary = try await explore(.exhaustive, configuration: bug.configuration, bug.fixed(spawning: spawn))
      counts.append(summary.exploredEverySchedule ? "\(summary.schedules)" : "stopped after \(summary.schedules)")
    }
    print("| \(bug.name) | " + counts.joined(separator: " | ") + " |")
  }
}
