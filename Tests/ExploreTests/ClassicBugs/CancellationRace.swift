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

extension ClassicBug {
  static let cancellationRace = ClassicBug(
    name: "cancellation race",
    buggy: {
      let download = Download()
      let worker = Task.effect(name: "worker") {
        await download.begin()
        await Task.yield()  // the network
        await download.finish()
      }
      let user = Task.effect(name: "user") {
        worker.cancel()
        await download.cancel()
      }
      _ = await (worker.value, user.value)
      let state = await download.state
      try check(state == "cancelled", "the download ended \(state) after the user cancelled it")
    },
    fixed: {
      let download = Download()
      let worker = Task.effect(name: "worker") {
        await download.begin()
        await Task.yield()
        await download.finishUnlessCancelled()
      }
      let user = Task.effect(name: "user") {
        worker.cancel()
        await download.cancel()
      }
      _ = await (worker.value, user.value)
      let state = await download.state
      try check(state == "cancelled", "the download ended \(state) after the user cancelled it")
    },
    randomBudget: 20, pctBudget: 20)
}
