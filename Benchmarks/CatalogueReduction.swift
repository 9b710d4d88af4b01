import BugCatalogue
import Dispatch
import Explore

/// The reduced search's cost per schedule against the exhaustive search's on the fixed twin of
/// each bug of the classic catalogue (spawning with `Task.effect`, in the bug's own configuration,
/// so with the reduced search's swap probes), as `Benchmarks reduction` measures it on its three
/// programs: in each of `rounds` rounds a reduced search, then an exhaustive one stopped at 20
/// times the reduced one's schedules; each search is repeated until it has taken 50 ms, since
/// some of these spaces take a millisecond. Prints each program's median of its rounds' ratios,
/// and the median and largest of those.
func benchmarkCatalogueReduction(rounds: Int) async throws {
  print("\nPer schedule, .reduced vs .exhaustive on the catalogue's fixed programs (median of \(rounds) rounds, each search repeated for 50 ms):")
  var medians: [Double] = []
  for bug in ClassicBug.all {
    var configuration = bug.configuration
    configuration.checksDeterminism = false
    configuration.progressInterval = nil
    configuration.portfolioBudget.time = nil
    var ratios: [Double] = []
    var counts = (reduced: 0, exhaustive: 0, claimed: false)
    for _ in 0..<rounds {
      let reduced = try await timedRepeatedly(.reduced(maxSchedules: 50_000), configuration, bug.fixed)
      let exhaustive = try await timedRepeatedly(.exhaustive(maxSchedules: max(reduced.schedules * 20, 1)), configuration, bug.fixed)
      counts = (reduced.schedules, exhaustive.schedules, reduced.claimed)
      ratios.append((reduced.seconds / Double(max(reduced.schedules, 1))) / (exhaustive.seconds / Double(max(exhaustive.schedules, 1))))
    }
    ratios.sort()
    let median = ratios[ratios.count / 2]
    medians.append(median)
    print(
      "  \(bug.name): \(counts.reduced) schedules\(counts.claimed ? "" : " (every class not claimed)") vs \(counts.exhaustive); "
        + "\(format(median))× (\(format(ratios[0]))–\(format(ratios[ratios.count - 1]))×)")
  }
  medians.sort()
  print("  median over the catalogue \(format(medians[medians.count / 2]))×, largest \(format(medians[medians.count - 1]))×")
}

/// Runs `strategy` on `program` again and again until the searches have taken 50 ms, and returns
/// one search's schedules and mean time, and whether it claimed every schedule (or class).
private func timedRepeatedly(
  _ strategy: ExplorationStrategy, _ configuration: ExploreConfiguration, _ program: @escaping @Sendable () async throws -> Void
) async throws -> (schedules: Int, seconds: Double, claimed: Bool) {
  var searches = 0
  var summary: ExplorationSummary?
  let start = DispatchTime.now().uptimeNanoseconds
  var elapsed = 0.0
  while searches == 0 || elapsed < 0.05 {
    summary = try await explore(strategy, configuration: configuration, program)
    searches += 1
    elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }
  return (summary?.schedules ?? 0, elapsed / Double(searches), summary?.exploredEverySchedule ?? false)
}
