import BugCatalogue
import EffectScheduler
import Explore

/// How often one PCT run of depth 3 finds the catalogue's bug of depth 3, over many seeds, against
/// the rate PCT's bound promises: 1 / (n · k^(d−1)) for n tasks and k steps. Each seed's search
/// runs its first-in-first-out probe and then one PCT run; only failures of the PCT run count.
func benchmarkPCTRate() async {
  let bug = ClassicBug.depthThreeOrdering
  var configuration = bug.configuration
  configuration.checksDeterminism = false
  configuration.progressInterval = nil
  let seeds: UInt64 = 2_000
  for spawn in Spawn.allCases {
    var found = 0
    for seed in 1...seeds {
      do {
        _ = try await explore(.pct(depth: 3, schedules: 1, seed: seed), configuration: configuration, bug.buggy(spawning: spawn))
      } catch {
        // The probe's failure has no seed: it is no PCT run.
        if error.seed != nil { found += 1 }
      }
    }
    let rate = Double(found) / Double(seeds)
    // n and k from a first-in-first-out run of the fixed twin, whose steps are the buggy one's.
    let trace = try? await DeterministicScheduler.run(operation: bug.fixed(spawning: spawn)).trace
    let (n, k) = (Double(trace?.tasks.count ?? 0), Double(trace?.steps ?? 0))
    let bound = n * k > 0 ? 1 / (n * k * k) : 0
    print(
      "  PCT depth 3 on the depth-3 ordering bug, \(spawn) tasks: found by \(found) of \(seeds) runs (\(format(rate * 100))%);"
        + " the bound 1/(n·k²) for n = \(Int(n)) tasks and k = \(Int(k)) steps promises \(format(bound * 100))%")
  }
}
