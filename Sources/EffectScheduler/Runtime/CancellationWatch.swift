extension DeterministicScheduler {
  /// Records, at the step just run, the cancellation of every task whose cancelled flag that
  /// step set: by `cancel()` on its handle, a group's `cancelAll()`, an `async let` left behind,
  /// or a parent's cancellation reaching its children. Only tasks whose memory the run keeps are
  /// read: those not completed, unstructured ones, which the run holds until it ends, and
  /// task-group children, which it retains until then. A structured child is known to have
  /// completed only once the root has, so an `async let` child's memory may by now be its
  /// parent's: it is read only while it still carries the child's runtime id.
  ///
  /// A task found cancelled, or completed and not held, is never read again: the registry keeps
  /// the others in a list of their own (``TaskRegistry/watchedForCancellation``).
  func recordCancellationsOfThisStep() {
    var index = 0
    while index < registry.watchedForCancellation.count {
      let id = registry.watchedForCancellation[index]
      guard !registry[id].cancelled, !registry[id].completed || registry[id].held else {
        registry.stopWatchingCancellation(at: index)
        continue
      }
      index += 1
      // The flag first, as it is almost never set: the id is read only to confirm it.
      guard taskReader.isCancelled(taskAt: registry[id].address),
        registry[id].held || runtimeTaskID(at: registry[id].address) == registry.runtimeID(of: id)
      else { continue }
      registry[id].cancelled = true
      record(id, .cancelled)
    }
  }
}
