import Effects

/// A download the user may cancel. The buggy worker marks it finished after its network wait
/// without looking at cancellation, overwriting the user's cancellation.
private actor Download {
  private(set) var state = "idle"
  func begin() { if state == "idle" { state = "running" } }
  func cancel() { state = "cancelled" }
  func finish() { state = "finished" }
  func finishUnlessCancelled() { if state != "cancelled" { state = "finished" } }
}

/// The user cancels a download while the worker waits on the network; `finishing` is how the
/// worker records that it is done. `spawn` makes both tasks.
private func cancelMidDownload(_ spawn: Spawn, finishing: @escaping @Sendable (Download) async -> Void) async throws {
  let download = Download()
  let worker = spawn(name: "worker") {
    await download.begin()
    await Task.yield()  // the network
    await finishing(download)
  }
  let user = spawn(name: "user") {
    worker.cancel()
    await download.cancel()
  }
  _ = await (worker.value, user.value)
  let state = await download.state
  try check(state == "cancelled", "the download ended \(state) after the user cancelled it")
}

extension ClassicBug {
  /// A download cancelled midway that still reports itself finished.
  public static let cancellationRace = ClassicBug(
    name: "cancellation race",
    buggy: { spawn in try await cancelMidDownload(spawn) { await $0.finish() } },
    fixed: { spawn in try await cancelMidDownload(spawn) { await $0.finishUnlessCancelled() } },
    randomBudget: 20, pctBudget: 20)
}
