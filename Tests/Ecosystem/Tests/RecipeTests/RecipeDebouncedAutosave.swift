// The swift-async-algorithms recipe of Sources/Explore/Explore.docc/Recipes.md, as the article
// prints it: the text between the markers is the article's code block, word for word.

// snippet begins
import AsyncAlgorithms
import Explore
import Testing

/// Where documents are written: an actor, so that writes from several tasks reach it one at a time.
actor DocumentStore {
  private(set) var writes: [String] = []
  func write(_ text: String) { writes.append(text) }
}

/// Saves a document once the user pauses typing for half a second. The edits go into a stream, and
/// swift-async-algorithms' `debounce` passes an edit on only when no other followed it within the
/// interval, and the pending one at once when the stream finishes. The loop finishes each write
/// before it takes the next edit, so the writes reach the store in the order of the edits.
final class Autosave: Sendable {
  private let edits: AsyncStream<String>.Continuation
  private let saving: Task<Void, Never>

  init(store: DocumentStore) {
    let (stream, edits) = AsyncStream.makeStream(of: String.self)
    self.edits = edits
    saving = Task {
      for await text in stream.debounce(for: .milliseconds(500)) {
        await store.write(text)
      }
    }
  }

  func edit(_ text: String) { edits.yield(text) }

  /// Saves the pending edit, if there is one, and waits until every write is done.
  func close() async {
    edits.finish()
    await saving.value
  }
}

@Test func theLastEditIsTheOneOnDisk() async throws {
  try await explore(.reduced) {
    let store = DocumentStore()
    let autosave = Autosave(store: store)
    autosave.edit("Hel")
    try await Task.sleep(for: .milliseconds(500))  // a pause exactly as long as the interval
    autosave.edit("Hello")
    await autosave.close()
    let writes = await store.writes
    #expect(writes == ["Hello"] || writes == ["Hel", "Hello"])
  }
}
// snippet ends
