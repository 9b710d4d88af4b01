import Effects

/// Uploads and what happens to them. An upload begins (its data is pending), commits, and
/// finishes. A cleaner purges the data of an upload it finds pending, as it would a stale one; a
/// thumbnailer makes a thumbnail of a committed upload's data.
private actor UploadStore {
  enum State { case none, pending, committed, failed, finished }
  private(set) var state = State.none
  private var data: String?
  private(set) var thumbnails: [String?] = []

  func begin() {
    data = "photo"
    state = .pending
  }

  /// Commits whatever is left of the data, even nothing.
  func commit() { state = .committed }

  /// Commits only if the cleaner left the data alone.
  func commitUnlessPurged() { state = data == nil ? .failed : .committed }

  func finish() { if state == .committed { state = .finished } }

  func clean() { if state == .pending { data = nil } }

  func makeThumbnail() { if state == .committed { thumbnails.append(data) } }
}

/// An upload in three steps: it begins, commits (with `commit`), then waits for the thumbnailer
/// and finishes. A thumbnail of purged data needs the cleaner to run between the first two steps
/// and the thumbnailer after the second, which it always does before the third: three ordering
/// constraints, a bug of depth 3. `spawn` makes the three tasks.
private func upload(_ spawn: Spawn, commit: @escaping @Sendable (UploadStore) async -> Void) async throws {
  let store = UploadStore()
  let thumbnailer = spawn(name: "thumbnailer") { await store.makeThumbnail() }
  let upload = spawn(name: "upload") {
    await store.begin()
    await Task.yield()  // sending the data
    await commit(store)
    await thumbnailer.value
    await store.finish()
  }
  let cleaner = spawn(name: "cleaner") { await store.clean() }
  _ = await (upload.value, cleaner.value)
  let thumbnails = await store.thumbnails
  try check(!thumbnails.contains(nil), "a thumbnail was made of purged data")
}

extension ClassicBug {
  /// A bug of depth 3: a cleaner must run between an upload's first two steps, a thumbnailer after
  /// its second.
  public static let depthThreeOrdering = ClassicBug(
    name: "ordering bug of depth 3: a cleaner between an upload's first two steps, a thumbnailer after its second",
    buggy: { spawn in try await upload(spawn) { await $0.commit() } },
    fixed: { spawn in try await upload(spawn) { await $0.commitUnlessPurged() } },
    randomBudget: 100, pctBudget: 1_000)
}
