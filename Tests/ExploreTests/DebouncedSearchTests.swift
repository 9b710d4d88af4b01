import BugCatalogue
import Explore
import ExploreTesting
import Testing

/// The server: answers at once, after one suspension.
private func searchServer(_ query: String) async -> [String] {
  await Task.yield()
  return [query.uppercased()]
}

/// A search field that waits for a 300 ms pause in typing before it searches, written with plain
/// `Task {}` and `Task.sleep`: each keystroke cancels the debounce task of the one before.
///
/// A cancelled sleep ends at once, so a cancelled debounce task normally never searches. But when
/// the timer fires just before the keystroke that cancels it, the task is already past its sleep:
/// the buggy one shows its answer anyway, for a query the user has already changed. The fixed one
/// checks for cancellation before it shows anything.
@MainActor
private final class DebouncedSearchField {
  private(set) var query = ""
  private(set) var results: [String] = []
  /// Each time results were shown for a query other than the one in the field.
  private(set) var staleUpdates: [String] = []
  private var debounce: Task<Void, Never>?
  private var started: [Task<Void, Never>] = []
  private let checksCancellation: Bool

  init(checksCancellation: Bool) { self.checksCancellation = checksCancellation }

  func type(_ query: String) {
    self.query = query
    debounce?.cancel()
    let task = Task {
      do { try await Task.sleep(for: .milliseconds(300)) } catch { return }
      let results = await searchServer(query)
      if checksCancellation && Task.isCancelled { return }
      show(results, for: query)
    }
    debounce = task
    started.append(task)
  }

  private func show(_ results: [String], for query: String) {
    if query != self.query { staleUpdates.append("\(results) for \"\(query)\" while the field said \"\(self.query)\"") }
    self.results = results
  }

  /// Waits for every debounce task started so far.
  func settle() async {
    var index = 0
    while index < started.count {
      await started[index].value
      index += 1
    }
  }
}

/// Types "s", then "sw" after `pause`, and checks that no stale results were ever shown.
func typeWithPause(_ pause: Duration, checksCancellation: Bool) async throws {
  let field = await DebouncedSearchField(checksCancellation: checksCancellation)
  await field.type("s")
  try await Task.sleep(for: pause)
  await field.type("sw")
  await field.settle()
  let (stale, results) = await (field.staleUpdates, field.results)
  try check(stale.isEmpty, "showed stale results: \(stale.joined(separator: "; "))")
  try check(results == ["SW"], "ended showing \(results)")
}

@Suite("A debounced search with Task {} and Task.sleep")
struct DebouncedSearchTests {
  @Test("a keystroke at the instant the debounce timer fires can lose to it: exhaustive search finds the stale results")
  func findsStaleResults() async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive) { try await typeWithPause(.milliseconds(300), checksCancellation: false) }
    }
    #expect(failure.underlyingError is InvariantViolation, "\(failure)")
    #expect(failure.summary.contains("[\"S\"] for \"s\" while the field said \"sw\""), "\(failure)")
    let trace = try #require(failure.trace)
    #expect(trace.table.contains("300ms"), "the trace shows virtual time")
    #expect(trace.table.contains("cancelled"), "the keystroke cancels the debounce task after its timer fired")

    let schedule = try #require(failure.schedule)
    let replayed = try await requireFailure(ExplorationFailure.self) {
      try await explore(.replay(schedule.description)) {
        try await typeWithPause(.milliseconds(300), checksCancellation: false)
      }
    }
    #expect(replayed.trace == failure.trace)
  }

  // Round pauses only: the scheduler recovers a sleep's duration from a real-time deadline, and a
  // step that takes a millisecond of real time can turn 299 ms into 300 ms.
  @Test("a keystroke well before or after the timer shows no stale results", arguments: [200, 400])
  func noTieNoBug(milliseconds: Int) async throws {
    let summary = try await explore(.exhaustive) {
      try await typeWithPause(.milliseconds(milliseconds), checksCancellation: false)
    }
    #expect(summary.claimsEverySchedule(assuming: [.timedWorkRanOnTime]))
  }

  @Test("checking for cancellation before showing results passes every schedule", arguments: [200, 300, 400])
  func fixedTwinPasses(milliseconds: Int) async throws {
    let summary = try await explore(.exhaustive) {
      try await typeWithPause(.milliseconds(milliseconds), checksCancellation: true)
    }
    #expect(summary.claimsEverySchedule(assuming: [.timedWorkRanOnTime]))
    #expect(summary.schedules > 1)
  }
}
