// Code block 1 of Sources/Explore/Explore.docc/Recipes.md, as the article prints it: `SnippetTests` checks, word for word, that
// every Swift block of the articles and the README is the text between the markers of a file here.

// snippet begins
import Explore
import Testing

/// A profile screen's model: loading starts a plain `Task {}`, and a refresh may start another
/// while the first is still out.
@MainActor final class ProfileModel {
  private(set) var name = ""
  private var loading: Task<Void, Never>?

  func refresh(fetch: @escaping @Sendable () async -> String) {
    loading?.cancel()
    loading = Task {
      let fetched = await fetch()
      guard !Task.isCancelled else { return }  // without this, a slow first load can win
      name = fetched
    }
  }

  func settle() async { await loading?.value }
}

actor ProfileServer {
  private(set) var requests = 0
  func fetch(_ answer: String) async -> String {
    requests += 1
    await Task.yield()  // the network
    return answer
  }
}

@Test func theLastRefreshWins() async throws {
  try await explore(.exhaustive) {
    let server = ProfileServer()
    let model = ProfileModel()
    await model.refresh { await server.fetch("old") }
    await model.refresh { await server.fetch("new") }
    await model.settle()
    #expect(await model.name == "new")
  }
}
// snippet ends
