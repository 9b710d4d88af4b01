import Dispatch
import EffectScheduler
import Foundation
import Synchronization
import Testing

/// Every wait below has a deadline, so a lost wake-up fails the test instead of hanging it. The
/// waits block threads of their own, never one of the cooperative pool that other tests share.
@Suite("WakeUpSignal: spin, then park")
struct WakeUpSignalTests {
  static func inSeconds(_ seconds: Int) -> DispatchTime { .now() + .seconds(seconds) }
  static func inMilliseconds(_ milliseconds: Int) -> DispatchTime { .now() + .milliseconds(milliseconds) }

  @Test("signals given while nobody waits count as one, and none is left over after it is taken")
  func signalsCoalesce() async {
    let (first, second) = await onThreadOfItsOwn {
      let signal = WakeUpSignal()
      signal.signal()
      signal.signal()
      signal.signal()
      return (signal.wait(until: Self.inSeconds(10)), signal.wait(until: Self.inMilliseconds(20)))
    }
    #expect(first)
    #expect(!second, "a second signal was left over")
  }

  @Test("a waiter that parked after its spin is woken by a signal from another thread")
  func parkedWaiterIsWoken() async {
    let (woken, again) = await onThreadOfItsOwn {
      let signal = WakeUpSignal()
      // 20 ms: far past the spin, so the waiter has parked on its semaphore.
      Thread.detach(after: .milliseconds(20)) { signal.signal() }
      return (signal.wait(until: Self.inSeconds(10)), signal.wait(until: Self.inMilliseconds(20)))
    }
    #expect(woken)
    #expect(!again, "the wake-up left a signal behind")
  }

  @Test("a wait that timed out leaves nothing behind, and the next signal still gets through")
  func timedOutWait() async {
    let waits = await onThreadOfItsOwn {
      let signal = WakeUpSignal()
      let before = signal.wait(until: Self.inMilliseconds(5))
      signal.signal()
      return [before, signal.wait(until: Self.inSeconds(10)), signal.wait(until: Self.inMilliseconds(5))]
    }
    #expect(waits == [false, true, false])
  }

  @Test("10,000 round trips between two threads each arrive, whether the waiter spun or parked")
  func pingPong() async {
    let rounds = 10_000
    let (returned, answered, finished) = await onThreadOfItsOwn {
      let ping = WakeUpSignal()
      let pong = WakeUpSignal()
      let done = WakeUpSignal()
      let answered = Atomic<Int>(0)
      Thread.detach {
        for _ in 0..<rounds {
          guard ping.wait(until: Self.inSeconds(10)) else { break }
          answered.add(1, ordering: .relaxed)
          pong.signal()
        }
        done.signal()
      }
      var returned = 0
      for _ in 0..<rounds {
        ping.signal()
        guard pong.wait(until: Self.inSeconds(10)) else { break }
        returned += 1
      }
      let finished = done.wait(until: Self.inSeconds(10))
      return (returned, answered.load(ordering: .relaxed), finished)
    }
    #expect(finished)
    #expect(returned == rounds)
    #expect(answered == rounds)
  }
}

/// Runs `body` on a new thread and returns what it returns.
private func onThreadOfItsOwn<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
  await withCheckedContinuation { continuation in
    Thread.detach { continuation.resume(returning: body()) }
  }
}
