extension DeterministicScheduler {
  /// The most tasks the run looks at after each step for their cancellation: see
  /// ``recordCancellationsOfThisStep()``.
  static let mostTasksWatchedForCancellation = 1_024

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
  ///
  /// Past ``mostTasksWatchedForCancellation`` tasks watched at once, the run stops looking
  /// (``RunTasks/cancellationsUnwatchedFrom``), so that no step costs a look at thousands of
  /// tasks: its cancellations are then seen at the cancelled task's next job, as in a run that
  /// does not watch, and the trace says so, which a reduced search takes as a run it does not
  /// analyse. A run with that many tasks live at once is past what it analyses anyway: each task
  /// that has run and not ended takes a column of its clocks, of which it takes at most 512.
  func recordCancellationsOfThisStep() {
    guard tasks.cancellationsUnwatchedFrom == nil else { return }
    guard tasks.registry.watchedForCancellation.count <= Self.mostTasksWatchedForCancellation else {
      tasks.cancellationsUnwatchedFrom = step
      return
    }
    let reader = taskReader
    guard
      let cancelled = tasks.registry.markNewlyCancelled(
        isCancelled: { reader.isCancelled(taskAt: $0) }, runtimeID: { runtimeTaskID(at: $0) },
        onlyHeld: { ExecutorAdoption.isReferencedOnlyByItsHold(taskAt: $0) })
    else { return }
    for id in cancelled { record(id, .cancelled) }
  }
}
