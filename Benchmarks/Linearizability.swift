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
}
