import Synchronization

// A job that blocks its thread stops its run for good (see StalledJobWatch.swift), and with it
// the call that waits for the run: an `explore` in a test would hang the test run. The call waits
// on a thread of its own (`onDedicatedThread(ifAJobStalls:_:)`), so it can stop waiting: once a
// job has run for `SchedulerConfiguration.blockedJobLimit` without returning, the watch gives the
// call its escape, and the call returns a failure that names the step and the task. The job's
// thread is left as it is, blocked or spinning; if the job ever returns, the search goes on there
// to its end, and its result is dropped.

/// The way out of the wait of a call whose runs run on a thread of its own, for a job of theirs
/// that does not return; the schedulers made on that thread, and on the threads it starts, take
/// it from the task-local ``current``.
package final class StalledJobEscape: Sendable {
  /// The escape of the call the calling task's runs belong to, if it has one.
  @TaskLocal package static var current: StalledJobEscape?

  /// What gives the call its failure.
  private let giveUp: @Sendable (String) -> Void
  /// Whether the call still waits for its answer, either way.
  private let isOpen = Atomic<Bool>(true)

  /// An escape that, taken, calls `giveUp` with what happened, in words.
  init(giveUp: @escaping @Sendable (String) -> Void) {
    self.giveUp = giveUp
  }

  /// Gives the call its failure, `description`, unless it has its answer already.
  func giveUp(because description: String) {
    if isOpen.exchange(false, ordering: .acquiringAndReleasing) { giveUp(description) }
  }

  /// Closes the escape, as the call's runs gave their answer; returns whether it was still open,
  /// so that the answer is the call's.
  func close() -> Bool {
    isOpen.exchange(false, ordering: .acquiringAndReleasing)
  }
}

/// Runs `body` as ``onDedicatedThread(_:)`` does, but returns `stalled(description)` instead once
/// a job of a run made there has run for its run's `SchedulerConfiguration.blockedJobLimit`
/// without returning: the thread is left to that job (see ``StalledJobEscape``).
package func onDedicatedThread<Result: Sendable>(
  ifAJobStalls stalled: @escaping @Sendable (_ description: String) -> Result, _ body: @escaping @Sendable () -> Result
) async -> Result {
  await withCheckedContinuation { (answer: CheckedContinuation<Result, Never>) in
    let escape = StalledJobEscape { answer.resume(returning: stalled($0)) }
    startOnDedicatedThread {
      let result = StalledJobEscape.$current.withValue(escape) { body() }
      if escape.close() { answer.resume(returning: result) }
    }
  }
}
