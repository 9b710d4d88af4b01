// A cancellable wait whose state sits behind a lock, as in thoven87/strand's PR #24: the waiter
// checks for cancellation, then stores its continuation under the lock; the cancellation handler,
// on the cancelling task, takes the continuation under the same lock and resumes it. A
// cancellation that lands between the check and the store finds nothing to resume, and the waiter
// hangs. On real threads that happens about once in a few thousand runs; with the lock written as
// `EffectLock`, each acquire is a scheduling point and Explore finds the schedule at once. The fix
// checks for cancellation under the lock.
import Effects
import Explore

/// A wait that one task makes until another opens the gate, or cancels the waiting task.
final class Gate: @unchecked Sendable {
  private let lock = EffectLock()
  private var waiter: CheckedContinuation<Void, any Error>?
  private var isOpen = false
  private let checksUnderLock: Bool

  init(checksUnderLock: Bool) {
    self.checksUnderLock = checksUnderLock
  }

  func wait() async throws {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        if !checksUnderLock, Task.isCancelled { return continuation.resume(throwing: CancellationError()) }
        lock.lock()
        if isOpen || checksUnderLock && Task.isCancelled {
          lock.unlock()
          return isOpen ? continuation.resume() : continuation.resume(throwing: CancellationError())
        }
        waiter = continuation
        lock.unlock()
      }
    } onCancel: {
      lock.lock()
      let waiting = waiter
      waiter = nil
      lock.unlock()
      waiting?.resume(throwing: CancellationError())
    }
  }
}

/// A task waits at a gate nobody opens; another cancels it.
func cancelledWait(checksUnderLock: Bool) -> @Sendable () async throws -> Void {
  {
    let gate = Gate(checksUnderLock: checksUnderLock)
    let waiter = Task { try? await gate.wait() }
    let canceller = Task { waiter.cancel() }
    await canceller.value
    await waiter.value
  }
}

var configuration = ExploreConfiguration()
configuration.scheduler.outsideWorldTimeout = .milliseconds(200)

print("Exploring the wait that checks for cancellation before it takes the lock…\n")
do {
  let summary = try await explore(.exhaustive, configuration: configuration, cancelledWait(checksUnderLock: false))
  print("no hang?! \(summary)")
} catch {
  print(error)
}

print("\nExploring the wait that checks under the lock…")
let summary = try await explore(.exhaustive, configuration: configuration, cancelledWait(checksUnderLock: true))
print("every schedule passes: \(summary)")
