// Code block 3 of Sources/Explore/Explore.docc/Recipes.md, as the article prints it: `SnippetTests` checks, word for word, that
// every Swift block of the articles and the README is the text between the markers of a file here.

// snippet begins
import Explore
import Testing

/// A reducer in the style of The Composable Architecture, written here without the library: a
/// store on the main actor runs the reducer for each action and starts the effect it returns as
/// a plain `Task {}`, whose actions come back to the store.
@MainActor final class Store<State, Action: Sendable> {
  typealias Effect = @Sendable () async -> Action?
  private(set) var state: State
  private let reduce: (inout State, Action) -> Effect?
  private var effects: [Task<Void, Never>] = []

  init(_ state: State, reduce: @escaping (inout State, Action) -> Effect?) {
    self.state = state
    self.reduce = reduce
  }

  func send(_ action: Action) {
    guard let effect = reduce(&state, action) else { return }
    effects.append(Task { if let next = await effect() { self.send(next) } })
  }

  /// Waits for every effect started so far, and those they started.
  func settle() async {
    var index = 0
    while index < effects.count {
      await effects[index].value
      index += 1
    }
  }
}

struct FactCounter {
  var count = 0
  var fact: String?
  /// The count each request asked about, so a late answer can be told from the current one.
  var asked: Int?
}

enum FactAction: Sendable {
  case increment, factButtonTapped
  case factResponse(Int, String)
}

func factReducer(_ state: inout FactCounter, _ action: FactAction) -> Store<FactCounter, FactAction>.Effect? {
  switch action {
  case .increment:
    state.count += 1
    return nil
  case .factButtonTapped:
    let count = state.count
    state.asked = count
    return {
      await Task.yield()  // the network
      return .factResponse(count, "\(count) is a number")
    }
  case .factResponse(let count, let fact):
    guard count == state.asked else { return nil }  // an answer to an older question
    state.fact = fact
    return nil
  }
}

@Test func theFactShownAnswersTheLastQuestion() async throws {
  try await explore(.exhaustive) {
    let store = await Store(FactCounter(), reduce: factReducer)
    await store.send(.factButtonTapped)
    await store.send(.increment)
    await store.send(.factButtonTapped)
    await store.settle()
    #expect(await store.state.fact == "1 is a number")
  }
}
// snippet ends
