import Dispatch
import Explore
import BugCatalogue

/// Programs for the partial-order reduction figures: dining philosophers and a debounced search
/// whose tasks work on actors of their own.

/// The programs the reduction is measured on, by name.
let reductionPrograms: [(String, @Sendable () async -> Void)] = [
  ("3 dining philosophers (fixed fork order)", { await dinner(seats: 3) }),
  ("debounced search, 3 keystrokes, server and analytics actors", debouncedSearchWithActors),
  ("3 group children updating one actor twice", { await actorUpdates(children: 3) }),
]

/// `seats` philosophers, forks taken lowest-numbered first, so the dinner never deadlocks: every
/// schedule must be tried to know it.
func dinner(seats: Int) async {
  let forks = (0..<seats).map { _ in AsyncLock() }
  await withDiscardingTaskGroup { group in
    for seat in 0..<seats {
      group.addTask {
        let (first, second) = (min(seat, (seat + 1) % seats), max(seat, (seat + 1) % seats))
        await forks[first].lock()
        await Task.yield()  // thinking
        await forks[second].lock()
        await forks[second].unlock()
        await forks[first].unlock()
      }
    }
  }
}

/// A search box debounced with a 300 ms sleep: each keystroke cancels the pending search and
/// starts another; a search that survives its debounce asks a server actor, logs to an analytics
/// actor, and shows its results in the model actor unless it was cancelled meanwhile.
@Sendable func debouncedSearchWithActors() async {
  let model = SearchModel()
  let server = SearchServer()
  let analytics = Analytics()
  for query in ["s", "sw", "swi"] {
    await model.type(query) {
      do { try await Task.sleep(for: .milliseconds(300)) } catch { return }
      await analytics.log(query)
      let results = await server.search(query)
      await analytics.log("results for \(query)")
      await model.show(results, for: query)
    }
    try? await Task.sleep(for: .milliseconds(300))
  }
  await model.settle()
}

/// The search box's state.
actor SearchModel {
  private var query = ""
  private var results: [String] = []
  private var pending: Task<Void, Never>?

  /// Types `query`, cancelling the pending search and starting `search`.
  func type(_ query: String, search: @escaping @Sendable () async -> Void) {
    self.query = query
    pending?.cancel()
    pending = Task { await search() }
  }

  /// Shows `results` if they answer the query in the box.
  func show(_ results: [String], for query: String) {
    if query == self.query, !Task.isCancelled { self.results = results }
  }

  /// Waits for the last search.
  func settle() async { await pending?.value }
}

/// Answers searches after a suspension.
actor SearchServer {
  private var served = 0

  /// The results for `query`.
  func search(_ query: String) async -> [String] {
    served += 1
    await Task.yield()
    return [query.uppercased()]
  }
}

/// Collects log lines.
actor Analytics {
  private var lines: [String] = []

  /// Adds a line.
  func log(_ line: String) { lines.append(line) }
}

/// The catalogue's fixed three philosophers under `.reduced` and under `.default` (its 2-second
/// budget on), with both kinds of spawn: how many schedules prove the table deadlock-free, and
/// whether the default portfolio proves it within its budget, as it is and told that the tasks
/// share nothing unseen (they share actors only).
func benchmarkPhilosophersProof() async throws {
  var configuration = ExploreConfiguration(progressInterval: nil)
  configuration.checksDeterminism = false
  print("\nThe catalogue's fixed 3 philosophers: every schedule, by .reduced and by .default (its budget on):")
  for spawn in Spawn.allCases {
    let program = ClassicBug.diningPhilosophers3.fixed(spawning: spawn)
    var start = DispatchTime.now().uptimeNanoseconds
    var assuming = configuration
    assuming.assumesNoUnseenSharing = true  // the philosophers share actors only
    let reduced = try await explore(.reduced(maxSchedules: 200_000), configuration: assuming) { try await program() }
    let reducedSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    start = DispatchTime.now().uptimeNanoseconds
    let portfolio = try await explore(.default, configuration: ClassicBug.diningPhilosophers3.configuration) { try await program() }
    let portfolioSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    start = DispatchTime.now().uptimeNanoseconds
    var portfolioAssuming = ClassicBug.diningPhilosophers3.configuration
    portfolioAssuming.assumesNoUnseenSharing = true
    let assumed = try await explore(.default, configuration: portfolioAssuming) { try await program() }
    let assumedSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print("  \(spawn):")
    print("    .reduced: \(reduced.exploredEverySchedule ? "all" : "stopped after") \(reduced.schedules) schedules in \(format(reducedSeconds * 1000)) ms")
    let ending = portfolio.exploredEverySchedule ? "every schedule explored" : "budget ran out (\(portfolio.budgetRanOut.map { "\($0)" } ?? "-"))"
    print("    .default: \(portfolio.schedules) schedules in \(format(portfolioSeconds * 1000)) ms, \(ending)")
    print("      parts: \(portfolio.portfolioParts.map(\.description).joined(separator: "; "))")
    let assumedEnding = assumed.exploredEverySchedule ? "every schedule explored" : "budget ran out (\(assumed.budgetRanOut.map { "\($0)" } ?? "-"))"
    print("    .default assuming no unseen sharing: \(assumed.schedules) schedules in \(format(assumedSeconds * 1000)) ms, \(assumedEnding)")
    print("      parts: \(assumed.portfolioParts.map(\.description).joined(separator: "; "))")
  }
}
