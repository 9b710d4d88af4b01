import BugCatalogue
import Effects
import Explore
import ExploreTesting
import Testing

/// A search backend. Each request runs as a task the scheduler controls: the network.
actor SearchService {
  private(set) var requests = 0

  func search(_ query: String) async -> [String] {
    requests += 1
    let request = Task.effect(name: "request \(query)") {
      await Task.yield()  // the network
      return [query.uppercased()]
    }
    return await request.value
  }
}

/// A view model whose loads may overlap. The buggy one shows whichever response arrives last; the
/// fixed one numbers its loads and drops a response to any load but the newest.
@MainActor
final class SearchViewModel {
  private(set) var query = ""
  private(set) var results: [String] = []
  private var generation = 0
  private let service: SearchService
  private let dropsStaleResponses: Bool

  init(service: SearchService, dropsStaleResponses: Bool) {
    self.service = service
    self.dropsStaleResponses = dropsStaleResponses
  }

  func load(query: String) async {
    self.query = query
    generation += 1
    let load = generation
    let results = await service.search(query)
    if dropsStaleResponses && load != generation { return }
    self.results = results
  }

  /// Throws unless the results shown are those of the query shown.
  func checkResultsMatchQuery() throws {
    try check(results == [query.uppercased()], "the results \(results) are stale for the query \"\(query)\"")
  }
}

/// The user types "s", then "sw": each keystroke starts a load in a plain task, and the two
/// loads overlap.
@Sendable func typeTwoQueries(dropsStaleResponses: Bool) async throws {
  let model = await SearchViewModel(service: SearchService(), dropsStaleResponses: dropsStaleResponses)
  let first = Task { await model.load(query: "s") }
  let second = Task { await model.load(query: "sw") }
  _ = await (first.value, second.value)
  try await model.checkResultsMatchQuery()
}

@Suite("A @MainActor view model with overlapping loads")
struct MainActorViewModelTests {
  @Test("exhaustive search finds the stale response, and its schedule replays exactly")
  func findsStaleResponse() async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive) { try await typeTwoQueries(dropsStaleResponses: false) }
    }
    #expect(failure.underlyingError is InvariantViolation, "\(failure)")
    #expect(failure.summary.contains("are stale for the query \"sw\""), "\(failure)")
    let trace = try #require(failure.trace)
    #expect(trace.table.contains("MainActor"), "the loads run as main-actor steps")

    let schedule = try #require(failure.schedule)
    let replayed = try await requireFailure(ExplorationFailure.self) {
      try await explore(.replay(schedule.description)) { try await typeTwoQueries(dropsStaleResponses: false) }
    }
    #expect(replayed.summary == failure.summary)
    #expect(replayed.schedule == schedule)
    #expect(replayed.trace == failure.trace)
  }

  @Test("dropping responses to superseded loads passes every schedule")
  func fixedTwinPasses() async throws {
    let summary = try await explore(.exhaustive) { try await typeTwoQueries(dropsStaleResponses: true) }
    #expect(summary.exploredEverySchedule)
    #expect(summary.schedules > 1)
  }

  @Test("a replay of the buggy schedule passes once the stale response is dropped")
  func fixPassesTheFailingSchedule() async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive) { try await typeTwoQueries(dropsStaleResponses: false) }
    }
    let schedule = try #require(failure.schedule)
    let summary = try await explore(.replay(schedule.description)) {
      try await typeTwoQueries(dropsStaleResponses: true)
    }
    #expect(summary.schedules == 1)
  }
}
