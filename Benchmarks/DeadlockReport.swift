import BugCatalogue
import Dispatch
import Explore

/// How long `explore(.exhaustive)` takes to report the first deadlock of catalogue programs, with
/// the default configuration (a 1 s `outsideWorldTimeout`, the determinism check on), with and
/// without reporting a run that nothing outside took part in at once.
func benchmarkDeadlockReport() async {
  let bugs: [ClassicBug] = [.lockOrderDeadlock, .diningPhilosophers3, .lostWakeup]
  print("\nTime for explore(.exhaustive) to report a deadlock through continuations, default configuration (1 s timeout):")
  for bug in bugs {
    var line = "  \(bug.name):"
    for atOnce in [true, false] {
      var configuration = ExploreConfiguration(progressInterval: nil)
      configuration.scheduler.reportsDeadlocksAtOnce = atOnce
      let start = DispatchTime.now().uptimeNanoseconds
      let reported: Bool
      do {
        _ = try await explore(.exhaustive(maxSchedules: 2_000), configuration: configuration) { try await bug.buggy() }
        reported = false
      } catch {
        reported = error.summary.hasPrefix("deadlock")
      }
      let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
      line += " \(atOnce ? "at once" : "timed wait") \(format(milliseconds)) ms\(reported ? "" : " (no deadlock reported)");"
    }
    print(line)
  }
}
