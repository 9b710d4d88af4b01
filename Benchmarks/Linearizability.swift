import BugCatalogue
import Dispatch
import Explore

/// The linearizability catalogue: how long the check takes to find each bug, and to pass each
/// correct twin on 100 scenarios, with the default configuration.
func benchmarkLinearizability() async {
  print("\nLinearizability checks, default configuration (targets: a bug found in <= 2 s, a twin's 100 scenarios in <= 10 s, debug build):")
  for entry in LinearizabilityEntry.all {
    let start = DispatchTime.now().uptimeNanoseconds
    var configuration = LinearizabilityConfiguration()
    configuration.timeBudget = nil
    let outcome: String
    do {
      let summary = try await entry.check(configuration)
      outcome = (entry.isLinearizable ? "passed: " : "MISSED: ") + summary.description
    } catch {
      let scenario = error.scenario.map { "\($0.callCount) calls in \($0.parallel.count) tasks" } ?? "no scenario"
      outcome = (entry.isLinearizable ? "FLAGGED: " : "found, shrunk to ") + scenario
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print("  \(entry): \(outcome), \(format(seconds)) s")
  }
  benchmarkLinearizabilityChecker()
}

/// The checker alone: a history of 3 tasks × 4 increments of a counter, overlapping as a
/// concurrent run's do, checked against a model that needs no scheduler run, as later runs of a
/// scenario find the model's results already known.
func benchmarkLinearizabilityChecker() {
  let tasks = 3
  let calls = 4
  var entries: [History.Entry] = []
  for task in 0..<tasks {
    for call in 0..<calls {
      let rank = call * tasks + task
      entries.append(History.Entry(began: rank * 2, ended: rank * 2 + 5, result: OperationResult(rank + 1)))
    }
  }
  let history = History(entries: entries)
  let checker = LinearizabilityChecker(model: { order in .success(order.indices.map { OperationResult($0 + 1) }) }, describe: { "increment #\($0)" })
  let checks = 10_000
  let start = DispatchTime.now().uptimeNanoseconds
  for _ in 0..<checks {
    guard case .success(nil) = Result(catching: { try checker.violation(in: history) }) else { fatalError("the history is linearizable") }
  }
  let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  print("  the checker on a 3 × 4 history: \(format(seconds / Double(checks) * 1e6)) µs a check (\(checks) checks)")
}
