import Effects
import Synchronization

/// A one-shot event. The buggy waiter checks whether it fired, suspends, and only then parks its
/// continuation: a signal in between is lost and the waiter sleeps forever.
private final class Event: Sendable {
  private struct State {
    var fired = false
    var waiter: CheckedContinuation<Void, Never>?
  }

  private let state = Mutex(State())

  var hasFired: Bool { state.withLock { $0.fired } }

  func park(_ waiter: CheckedContinuation<Void, Never>) {
    state.withLock { $0.waiter = waiter }
  }

  func parkUnlessFired(_ waiter: CheckedContinuation<Void, Never>) {
    let fired = state.withLock { state in
      if !state.fired { state.waiter = waiter }
      return state.fired
    }
    if fired { waiter.resume() }
  }

  func fire() {
    let waiter = state.withLock { state in
      state.fired = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }
}

extension ClassicBug {
  /// A waiter that parks its continuation after the signal fired: it sleeps forever.
  public static let lostWakeup = ClassicBug(
    name: "lost wakeup: a continuation stored after the signal fired",
    buggy: { spawn in
      let event = Event()
      let waiter = spawn(name: "waiter") {
        if !event.hasFired {
          await Task.yield()  // logging that it is about to wait
          await withCheckedContinuation { event.park($0) }
        }
      }
      let signaller = spawn(name: "signaller") { event.fire() }
      _ = await (waiter.value, signaller.value)
    },
    fixed: { spawn in
      let event = Event()
      let waiter = spawn(name: "waiter") {
        await Task.yield()
        await withCheckedContinuation { event.parkUnlessFired($0) }
      }
      let signaller = spawn(name: "signaller") { event.fire() }
      _ = await (waiter.value, signaller.value)
    },
    randomBudget: 20, pctBudget: 20, configuration: .deadlocking)
}
