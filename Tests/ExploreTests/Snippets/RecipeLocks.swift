// Code block 4 of Sources/Explore/Explore.docc/Recipes.md, as the article prints it: `SnippetTests` checks, word for word, that
// every Swift block of the articles and the README is the text between the markers of a file here.

// snippet begins
import Effects
import Explore
import Testing

/// A gate one task waits at until it opens. The waiter stores its continuation under a lock; if
/// the waiter is cancelled, the cancellation handler, run by the cancelling task, takes it under
/// the same lock and resumes it. The waiter checks for cancellation under the lock: checked before
/// it, a cancellation landing between the check and the store finds nothing to resume, and the
/// waiter waits forever.
final class CancellableGate: @unchecked Sendable {
  private let lock = EffectLock()
  private var waiter: CheckedContinuation<Void, any Error>?
  private var isOpen = false

  func wait() async throws {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        lock.lock()
        if isOpen {
          lock.unlock()
          return continuation.resume()
        }
        if Task.isCancelled {
          lock.unlock()
          return continuation.resume(throwing: CancellationError())
        }
        waiter = continuation
        lock.unlock()
      }
    } onCancel: {
      lock.lock()
      let cancelled = waiter
      waiter = nil
      lock.unlock()
      cancelled?.resume(throwing: CancellationError())
    }
  }

  func open() {
    lock.lock()
    isOpen = true
    let waiting = waiter
    waiter = nil
    lock.unlock()
    waiting?.resume()
  }
}

@Test func aCancelledWaiterNeverHangs() async throws {
  try await explore(.exhaustive) {
    let gate = CancellableGate()
    let waiter = Task { try? await gate.wait() }
    let canceller = Task { waiter.cancel() }
    await canceller.value
    await waiter.value
  }
}
// snippet ends
