import Effects

/// The search backend: the names that start with a query. A short query matches more and takes
/// the server longer, and a request once sent is answered whether or not the caller still waits.
enum Search {
  static let catalog = ["scheduler", "sendable", "sleep", "swift", "swiftui"]

  static let results = AsyncEffect<String, [String]>("Search.results") { query in
    await Task {  // the request is on the wire: cancelling the caller does not recall it
      try? await Task.sleep(for: .milliseconds(query.count == 1 ? 500 : 100))
      return catalog.filter { $0.hasPrefix(query) }
    }.value
  }
}

/// A search field that debounces on the default clock: each keystroke cancels the search task of
/// the previous one and starts a new one, which waits until 300 ms after the keystroke and then
/// asks the server.
///
/// The buggy field checks for cancellation only once its 300 ms are over. A keystroke that comes
/// exactly as the timer fires may cancel the old search before it resumes (nothing is sent) or
/// just after it has sent its request; then the slow answer for the old text lands after the
/// answer for the new one and overwrites it. The fixed field also drops the answer of a cancelled
/// search.
@MainActor
final class SearchField {
  private(set) var text = ""
  private(set) var results: [String] = []
  private var search: Task<Void, Never>?
  private let dropsAnswersOfCancelledSearches: Bool

  init(dropsAnswersOfCancelledSearches: Bool) {
    self.dropsAnswersOfCancelledSearches = dropsAnswersOfCancelledSearches
  }

  @discardableResult
  func type(_ text: String) -> Task<Void, Never> {
    self.text = text
    search?.cancel()
    let deadline = ContinuousClock.now + .milliseconds(300)
    let search = Task {
      do { try await Task.sleep(until: deadline, clock: .continuous) } catch { return }
      if Task.isCancelled { return }
      let found = await Search.results(text)
      if dropsAnswersOfCancelledSearches, Task.isCancelled { return }
      results = found
    }
    self.search = search
    return search
  }
}
