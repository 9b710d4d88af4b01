import Dispatch
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A wake-up that one thread waits for and any thread gives, such as a driver thread waiting for
/// work from outside or a thread blocked in a synchronous effect waiting for the script's reply.
///
/// Signals given while nobody waits are kept as one, so a waiter must check what it waits for
/// after each wake-up, and signals never pile up. The waiter first spins for a short while
/// (``spinningTime``), checking one atomic, and only then parks on a semaphore: a test script
/// usually answers within a few microseconds, and a thread woken from a semaphore costs tens of
/// them. A signal costs one atomic exchange, plus a semaphore signal only when the waiter has
/// parked.
package final class WakeUpSignal: Sendable {
  /// How long a waiter spins before it parks, in nanoseconds: long enough to cover a script's
  /// answer and the program's next step on a machine whose other core is busy, short enough that
  /// a waiter with nothing coming soon gives its core back quickly.
  package static let spinningTime: UInt64 = 50_000

  private static let idle = 0
  private static let signalled = 1
  private static let parked = 2

  private let state = Atomic<Int>(idle)
  private let semaphore = DispatchSemaphore(value: 0)

  package init() {}

  /// Wakes the waiter, or the next one to wait.
  package func signal() {
    if state.exchange(Self.signalled, ordering: .acquiringAndReleasing) == Self.parked { semaphore.signal() }
  }

  /// Waits for a signal, until `deadline` if there is one; returns whether a signal came. What the
  /// signaller published before signalling is visible once it returns `true`.
  package func wait(until deadline: DispatchTime? = nil) -> Bool {
    if spinBriefly(until: consume) { return true }
    guard state.compareExchange(expected: Self.idle, desired: Self.parked, ordering: .acquiringAndReleasing).exchanged else {
      // A signal came between the spin and the park.
      return consume()
    }
    if semaphore.wait(timeout: deadline ?? .distantFuture) == .timedOut {
      if state.compareExchange(expected: Self.parked, desired: Self.idle, ordering: .acquiringAndReleasing).exchanged {
        return false
      }
      // A signaller saw the waiter parked and is about to signal the semaphore: take that signal,
      // so that none is left over for the next wait.
      semaphore.wait()
    }
    // The signal that woke the waiter, and any given since, are one.
    _ = state.exchange(Self.idle, ordering: .acquiringAndReleasing)
    return true
  }

  /// Takes a signal given while nobody was parked.
  private func consume() -> Bool {
    guard state.load(ordering: .relaxed) == Self.signalled else { return false }
    return state.compareExchange(expected: Self.signalled, desired: Self.idle, ordering: .acquiringAndReleasing).exchanged
  }
}

/// Polls `isDone` for up to ``WakeUpSignal/spinningTime``, letting other threads run between two
/// polls; returns whether it became true. For waiters that cannot park on a ``WakeUpSignal``,
/// such as a task about to suspend.
package func spinBriefly(until isDone: () -> Bool) -> Bool {
  let deadline = DispatchTime.now().uptimeNanoseconds + WakeUpSignal.spinningTime
  repeat {
    if isDone() { return true }
    // Lets another thread run on this core: the thread this one waits for is often on the same
    // core, and a spin that polled without yielding would hold it off for the rest of its slice.
    sched_yield()
  } while DispatchTime.now().uptimeNanoseconds < deadline
  return isDone()
}
