// Code block 2 of Sources/Explore/Explore.docc/Recipes.md, as the article prints it: `SnippetTests` checks, word for word, that
// every Swift block of the articles and the README is the text between the markers of a file here.

// snippet begins
import Explore
import Testing

/// A search field that waits for a 300 ms pause in typing before it searches: each keystroke
/// cancels the pending search. The check after the server's answer matters: a keystroke can land
/// just after the sleep ended, and the search it cancels must not show its stale results.
@MainActor final class SearchField {
  private(set) var query = ""
  private(set) var results: [String] = []
  /// Each search whose results were shown, with the field's text at that moment.
  private(set) var shown: [(search: String, field: String)] = []
  private var pending: Task<Void, Never>?

  func type(_ query: String, search: @escaping @Sendable (String) async -> [String]) {
    self.query = query
    pending?.cancel()
    pending = Task {
      do { try await Task.sleep(for: .milliseconds(300)) } catch { return }
      let found = await search(query)
      guard !Task.isCancelled else { return }
      results = found
      shown.append((query, self.query))
    }
  }

  func settle() async { await pending?.value }
}

@Test func showsOnlyTheLastQuerysResults() async throws {
  try await explore(.exhaustive) {
    let field = SearchField()
    let search: @Sendable (String) async -> [String] = { query in
      await Task.yield()  // the server
      return [query.uppercased()]
    }
    await field.type("s", search: search)
    try await Task.sleep(for: .milliseconds(300))  // a pause just as long as the debounce
    await field.type("sw", search: search)
    await field.settle()
    #expect(await field.results == ["SW"])
    #expect(await field.shown.allSatisfy { $0.search == $0.field })
  }
}
// snippet ends
