import BugCatalogue
import Dispatch
import Explore

/// The reduced search's cost per schedule against the exhaustive search's on the fixed twin of
/// each bug of the classic catalogue (spawning with `Task.effect`, in the bug's own configuration,
/// so with the reduced search's swap probes), as `Benchmarks reduction` measures it on its three
/// programs: in each of `rounds` rounds, reduced searches and exhaustive ones stopped at 20 times
/// the reduced one's schedules, by turns until each kind has taken 50 ms, since some of these
/// spaces take a millisecond, and about as long as the other (``timedAlternately(_:_:)``).
/// Prints each program's median of its rounds' ratios, and the median and largest of those. The
/// reduced search's schedules include its probe runs (``ReductionCheck/swapsTried``), real runs of
/// the program that try a pair of steps the other way round, which the summary counts among them.
/// `only` picks the bugs whose names start with it.
///
/// Beside each ratio of wall-clock times, the ratio of the searches' own clocks
/// (``ExplorationSummary/duration``), which leave out what an `explore` call costs outside its
/// search, also printed (the wall-clock time a call less the search's own, median of the rounds):
/// the hand-off of the call to a driver thread and back, the same for every strategy, and after a
/// long search, letting go of what it kept. A search of few schedules carries the hand-off over
/// few of them, and it grows when the machine runs slow; a search of one or two short runs, on
/// the other hand, shows by its own clock mostly the reduced search's fixed cost of analysing a
/// run. The wall-clock ratio is the one the target is about.
func benchmarkCatalogueReduction(rounds: Int, only: String?, searchOnly: String? = nil, exhaustiveLimit: Int = 100_000) async throws {
  print(
    "\nPer schedule, .reduced vs .exhaustive on the catalogue's fixed programs (median of \(rounds) rounds, "
      + "each of searches by turns until each kind has taken 50 ms and about as long as the other):")
  var medians: [Double] = []
  var ownMedians: [Double] = []
  for bug in ClassicBug.all where only.map(bug.name.hasPrefix) ?? true {
    var configuration = bug.configuration
    configuration.checksDeterminism = false
    configuration.progressInterval = nil
    configuration.portfolioBudget.time = nil
    var ratios: [Double] = []
    var ownRatios: [Double] = []
    var outside: (reduced: [Double], exhaustive: [Double]) = ([], [])
    var counts = (reduced: 0, probes: 0, exhaustive: 0, claimed: false)
    var searchTimes = (reduced: Double.infinity, exhaustive: Double.infinity)
    if let searchOnly {
      let strategy: ExplorationStrategy = searchOnly == "reduced" ? .reduced(maxSchedules: 50_000) : .exhaustive(maxSchedules: exhaustiveLimit)
      for _ in 0..<rounds {
        let search = try await timedRepeatedly(strategy, configuration, bug.fixed)
        print(
          "  \(bug.name), \(searchOnly) alone: \(search.schedules) schedules, \(search.probes) of them probe runs, "
            + "\(format(search.seconds * 1e6)) µs a search, \(search.searches) searches")
      }
      continue
    }
    for _ in 0..<rounds {
      let (reduced, exhaustive) = try await timedAlternately(configuration, bug.fixed)
      counts = (reduced.schedules, reduced.probes, exhaustive.schedules, reduced.claimed)
      searchTimes = (min(searchTimes.reduced, reduced.secondsEach), min(searchTimes.exhaustive, exhaustive.secondsEach))
      let exhaustiveEach = exhaustive.secondsEach / Double(max(exhaustive.schedules, 1))
      ratios.append(reduced.secondsEach / Double(max(reduced.schedules, 1)) / exhaustiveEach)
      let exhaustiveOwnEach = exhaustive.ownSecondsEach / Double(max(exhaustive.schedules, 1))
      ownRatios.append(reduced.ownSecondsEach / Double(max(reduced.schedules, 1)) / exhaustiveOwnEach)
      outside.reduced.append(reduced.secondsEach - reduced.ownSecondsEach)
      outside.exhaustive.append(exhaustive.secondsEach - exhaustive.ownSecondsEach)
    }
    let (ratio, own) = (median(ratios), median(ownRatios))
    medians.append(ratio)
    ownMedians.append(own)
    print(
      "  \(bug.name): \(counts.reduced) schedules, \(counts.probes) of them probe runs\(counts.claimed ? "" : " (every class not claimed)"), vs \(counts.exhaustive); "
        + "\(format(ratio))× (\(format(ratios.min()!))–\(format(ratios.max()!))×), by the searches' own clocks \(format(own))×;"
        + " a search \(format(searchTimes.reduced * 1e3)) vs \(format(searchTimes.exhaustive * 1e3)) ms at the fastest;"
        + " outside the searches' own clocks \(format(median(outside.reduced) * 1e6)) vs \(format(median(outside.exhaustive) * 1e6)) µs a call")
  }
  guard !medians.isEmpty else { return }
  print(
    "  median over the catalogue \(format(median(medians)))×, largest \(format(medians.max()!))×; "
      + "by the searches' own clocks \(format(median(ownMedians)))× and \(format(ownMedians.max()!))×")
}

/// The median of `values`, which must not be empty: the upper one of an even count.
func median(_ values: [Double]) -> Double {
  values.sorted()[values.count / 2]
}

/// Runs a reduced search of `program` and an exhaustive one, stopped at 20 times the reduced
/// one's schedules, by turns (the kind that has taken less time so far goes next) until each kind
/// has taken 50 ms and neither less than three quarters of the other's time, and returns for each
/// its schedules, probe runs, mean time a search and claim.
/// By turns, so that both kinds run through the same moments of a machine whose speed moves:
/// measured one block after the other, the ratio of a round followed the machine as much as the
/// searches (the lost update's rounds spread from 1.37× to 2.31× over three runs). Until their
/// times are close, as a search of a large space takes longer than 50 ms by itself: the three
/// philosophers' round was one reduced search of 0.7 s against one exhaustive search of 8 s, and
/// its ratio followed the machine during those 0.7 s (rounds from 1.53× to 2.11× in one run).
private func timedAlternately(
  _ configuration: ExploreConfiguration, _ program: @escaping @Sendable () async throws -> Void
) async throws -> (reduced: TimedSearch, exhaustive: TimedSearch) {
  var reduced = TimedSearch()
  var exhaustive = TimedSearch()
  while reduced.searches == 0 || exhaustive.searches == 0 || min(reduced.seconds, exhaustive.seconds) < 0.05
    || min(reduced.seconds, exhaustive.seconds) < max(reduced.seconds, exhaustive.seconds) * 0.75
  {
    let turnIsReduced = reduced.searches == 0 || reduced.seconds <= exhaustive.seconds
    let strategy: ExplorationStrategy =
      turnIsReduced ? .reduced(maxSchedules: 50_000) : .exhaustive(maxSchedules: max(reduced.schedules * 20, 1))
    let start = DispatchTime.now().uptimeNanoseconds
    let summary = try await explore(strategy, configuration: configuration, program)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    if turnIsReduced { reduced.add(summary, seconds: seconds) } else { exhaustive.add(summary, seconds: seconds) }
  }
  return (reduced, exhaustive)
}

/// The searches of one kind of a round of ``timedAlternately(_:_:)``: the last one's schedules,
/// probe runs and claim, and how many there were and how long they took in all, by the wall clock
/// and by their own (``ExplorationSummary/duration``).
private struct TimedSearch {
  var schedules = 0
  var probes = 0
  var claimed = false
  var searches = 0
  var seconds = 0.0
  var ownSeconds = 0.0

  /// The mean time a search.
  var secondsEach: Double { seconds / Double(max(searches, 1)) }
  /// The mean time a search by its own clock.
  var ownSecondsEach: Double { ownSeconds / Double(max(searches, 1)) }

  mutating func add(_ summary: ExplorationSummary, seconds: Double) {
    schedules = summary.schedules
    probes = summary.reductionCheck?.swapsTried ?? 0
    claimed = summary.exploredEverySchedule
    searches += 1
    self.seconds += seconds
    ownSeconds += Double(summary.duration.components.seconds) + Double(summary.duration.components.attoseconds) / 1e18
  }
}

/// Runs `strategy` on `program` again and again until the searches have taken 50 ms, and returns
/// one search's schedules, probe runs and mean time, whether it claimed every schedule (or
/// class), and how many searches ran: a profile's samples are divided by it.
private func timedRepeatedly(
  _ strategy: ExplorationStrategy, _ configuration: ExploreConfiguration, _ program: @escaping @Sendable () async throws -> Void
) async throws -> (schedules: Int, probes: Int, seconds: Double, claimed: Bool, searches: Int) {
  var searches = 0
  var summary: ExplorationSummary?
  let start = DispatchTime.now().uptimeNanoseconds
  var elapsed = 0.0
  while searches == 0 || elapsed < 0.05 {
    summary = try await explore(strategy, configuration: configuration, program)
    searches += 1
    elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }
  return (summary?.schedules ?? 0, summary?.reductionCheck?.swapsTried ?? 0, elapsed / Double(searches), summary?.exploredEverySchedule ?? false, searches)
}
