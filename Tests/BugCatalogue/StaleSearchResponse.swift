import Effects

/// A debounced search written in transducer style: a pure `update` decides state changes and
/// which effect to start; a small runtime runs effects as tasks keyed by id.
private enum Search {
  struct State: Equatable {
    var query = ""
    var results: [String] = []
  }

  enum Event {
    case queryChanged(String)
    case resultsArrived(query: String, results: [String])
  }

  /// Work for the runtime: search for `query`, replacing any search already in flight.
  struct Effect {
    static let id = "search"
    let query: String
  }

  static func update(_ state: inout State, _ event: Event) -> Effect? {
    switch event {
    case .queryChanged(let query):
      state.query = query
      return Effect(query: query)
    case .resultsArrived(_, let results):
      state.results = results
      return nil
    }
  }

  /// Pretends to call a server.
  static func results(for query: String) async -> [String] {
    await Task.yield()
    return [query.uppercased()]
  }
}

/// Runs the transducer, starting effects as tasks made by `spawn`. `cancelsInFlight` is the fix: a
/// new search cancels the one in flight, and a cancelled search delivers nothing.
private actor SearchRuntime {
  private(set) var state = Search.State()
  private var tasks: [String: Task<Void, Never>] = [:]
  private var all: [Task<Void, Never>] = []
  private let cancelsInFlight: Bool
  private let spawn: Spawn

  init(cancelsInFlight: Bool, spawn: Spawn) {
    self.cancelsInFlight = cancelsInFlight
    self.spawn = spawn
  }

  func send(_ event: Search.Event) {
    guard let effect = Search.update(&state, event) else { return }
    if cancelsInFlight { tasks[Search.Effect.id]?.cancel() }
    let cancelsInFlight = cancelsInFlight
    let task = spawn(name: "search \(effect.query)") {
      await Task.yield()  // the debounce interval
      if cancelsInFlight && Task.isCancelled { return }
      let results = await Search.results(for: effect.query)
      if cancelsInFlight && Task.isCancelled { return }
      await self.send(.resultsArrived(query: effect.query, results: results))
    }
    tasks[Search.Effect.id] = task
    all.append(task)
  }

  /// Waits for every effect started so far.
  func settle() async {
    var index = 0
    while index < all.count {
      await all[index].value
      index += 1
    }
  }
}

private func typeTwoLetters(cancelsInFlight: Bool, spawn: Spawn) async throws {
  let runtime = SearchRuntime(cancelsInFlight: cancelsInFlight, spawn: spawn)
  await runtime.send(.queryChanged("s"))
  await Task.yield()  // the user types the next letter
  await runtime.send(.queryChanged("sw"))
  await runtime.settle()
  let state = await runtime.state
  try check(state.results == ["SW"], "the results \(state.results) are stale for the query \"\(state.query)\"")
}

extension ClassicBug {
  /// A search whose earlier, slower response overwrites the results of a later query.
  public static let staleSearchResponse = ClassicBug(
    name: "stale response in a debounced search (transducer style)",
    buggy: { spawn in try await typeTwoLetters(cancelsInFlight: false, spawn: spawn) },
    fixed: { spawn in try await typeTwoLetters(cancelsInFlight: true, spawn: spawn) },
    randomBudget: 40, pctBudget: 40)
}
