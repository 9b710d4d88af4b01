import Effects

/// A gate that async code waits at until it opens, cancellable: a waiter stores its continuation
/// under a lock, and the cancellation handler, on the cancelling task, takes it under the same
/// lock and resumes it (the shape of thoven87/strand's PR #24).
private final class Gate: @unchecked Sendable {
  private let lock = EffectLock()
  private var waiter: CheckedContinuation<Void, any Error>?

  /// Waits until the gate opens or the task is cancelled. With `checksUnderLock` false, the
  /// waiter checks for cancellation before it takes the lock: a cancellation landing between the
  /// check and the store finds no continuation to resume, and the waiter waits forever.
  func wait(checksUnderLock: Bool) async throws {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        if !checksUnderLock, Task.isCancelled { return continuation.resume(throwing: CancellationError()) }
        lock.lock()
        if checksUnderLock, Task.isCancelled {
          lock.unlock()
          return continuation.resume(throwing: CancellationError())
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

/// A task waits at a gate that never opens, and another cancels it.
private func cancelledWait(_ spawn: Spawn, checksUnderLock: Bool) async throws {
  let gate = Gate()
  let waiter = spawn(name: "waiter") { try? await gate.wait(checksUnderLock: checksUnderLock) }
  let canceller = spawn(name: "canceller") { waiter.cancel() }
  await canceller.value
  await waiter.value
}

extension ClassicBug {
  /// A cancellable wait that checks for cancellation and then stores its continuation under a
  /// lock: a cancellation between the two finds nothing to resume, and the waiter hangs. The
  /// fix checks under the lock.
  public static let lockedCancellationRace = ClassicBug(
    name: "cancellation between a check and a store under a lock",
    buggy: { spawn in try await cancelledWait(spawn, checksUnderLock: false) },
    fixed: { spawn in try await cancelledWait(spawn, checksUnderLock: true) },
    randomBudget: 50, pctBudget: 50, configuration: .deadlocking)
}
