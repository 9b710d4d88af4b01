extension DeterministicScheduler {
  /// Records, at the step just run, the cancellation of every task whose cancelled flag that
  /// step set: by `cancel()` on its handle, a group's `cancelAll()`, an `async let` left behind,
  /// or a parent's cancellation reaching its children. Only tasks whose memory the run keeps are
  /// read: those not completed, unstructured ones, which the run holds until it ends, and
  /// task-group children, which it retains until then. A structured child is known to have
  /// completed only once the root has, so an `async let` child's memory may by now be its
  /// parent's: it is read only while it still carries the child's runtime id.
  ///
  /// A task found cancelled, or completed and not held, is never read again, nor is a held one
  /// completed once nothing but the run's hold refers to it: no handle is left to cancel it. The
  /// registry keeps the others in a list of their own (``TaskRegistry/watchedForCancellation``).
  func recordCancellationsOfThisStep() {
    guard strategy?.hiddenAccessRelease?.isReleased != true else { return }
    let reader = taskReader
    guard
      let cancelled = tasks.registry.markNewlyCancelled(
        isCancelled: { reader.isCancelled(taskAt: $0) }, runtimeID: { runtimeTaskID(at: $0) },
        onlyHeld: { ExecutorAdoption.isReferencedOnlyByItsHold(taskAt: $0) })
    else { return }
    for id in cancelled { record(id, .cancelled) }
  }
}
