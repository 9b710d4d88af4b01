import EffectScheduler

// Elements of streams made with `.effect` under `StreamHandling.expect`.
extension TestSession {
  /// Lets a held element reach its consumer, once the program's current steps are done, and waits
  /// until the program has settled again. An element no longer held is left alone.
  func deliver(_ element: HeldElement) async {
    let (scheduler, wasHeld) = state.withLock { state in
      guard let index = state.heldElements.firstIndex(where: { $0 === element }) else { return (state.scheduler, false) }
      state.heldElements.remove(at: index)
      return (state.scheduler, true)
    }
    guard wasHeld else { return }
    handOver(element.deliver, atOnce: false, on: scheduler)
    await waitUntilSettled()
  }

  /// Ends the stream of `element` where its consumer reads, with `error` if there is one, once the
  /// program's current steps are done; the stream's elements the script holds or has not taken
  /// yet are dropped. Then waits until the program has settled again.
  func endStream(of element: HeldElement, throwing error: (any Error)?) async {
    let stream = element.stream
    let (scheduler, dropped) = state.withLock { state in
      let count = state.heldElements.count
      state.heldElements.removeAll { $0.stream === stream }
      state.pending.removeAll { pending in
        guard case .element(let other) = pending.subject else { return false }
        return other.stream === stream
      }
      return (state.scheduler, count - state.heldElements.count)
    }
    // The end takes over an announcement of its own; those of the dropped elements are withdrawn.
    scheduler?.announceWorkFromOutside()
    handOver({ stream.end(throwing: error) }, atOnce: false, on: scheduler)
    for _ in 0..<dropped { scheduler?.withdrawWorkFromOutside() }
    await waitUntilSettled()
  }

  /// At the end of the script, delivers the elements the script took and still holds, as held
  /// tasks are enqueued then. Each element it never took, `unexpected`, is a failure, and ends its
  /// stream, failing it when it can, so that its consumer does not wait for good.
  func releaseHeldElements(unexpected: [HeldElement], on scheduler: DeterministicScheduler?) {
    let (held, failures) = state.withLock { state in
      let held = state.heldElements
      state.heldElements = []
      let failures = unexpected.map { EffectTestFailure($0.unexpected, at: site) }
      state.failures += failures
      return (held, failures)
    }
    for element in held {
      if let index = unexpected.firstIndex(where: { $0 === element }) {
        let (stream, failure) = (element.stream, failures[index])
        handOver({ stream.end(throwing: stream.canFail ? failure : nil) }, atOnce: false, on: scheduler)
      } else {
        // Delivering to a stream ended just before does nothing.
        handOver(element.deliver, atOnce: false, on: scheduler)
      }
    }
  }
}
