// How the scheduler learns that a task it did not create completed.
//
// `Task.effect` tasks and the root say so themselves. A plain `Task {}` cannot, but the runtime
// does two things the scheduler can watch: it copies the creator's task-local values into the new
// task, retaining each, and it releases them the moment the task completes (not when its handle
// goes away). The root binds its scheduler's `ActiveRun` for the whole program, so every task that
// copied it holds one reference to it until it completes. Only the running task can complete
// during a step, and the step's only other change to the count is a task it creates, which the
// scheduler sees at once: a count one below the step's baseline therefore means the running task
// completed. `Task.detached {}` copies no task-local values, so its completion goes unseen.
//
// A scheduler runs again only after a run that left no plain task unfinished, so no task of an
// earlier run still holds its `ActiveRun` when the next run counts.

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What controlled code sees of the run it belongs to, bound as a task-local value by the root.
///
/// It holds its scheduler strongly, for a task left over from a run may still ask for it. The
/// scheduler holds it too, so that runs share one; whoever is done with a scheduler breaks that
/// cycle with ``DeterministicScheduler/retire()``.
final class ActiveRun: Sendable {
  let scheduler: DeterministicScheduler

  init(scheduler: DeterministicScheduler) {
    self.scheduler = scheduler
  }

  /// How many strong references there are to this object: one per task that holds it, plus the
  /// scheduler's and the root's binding.
  var referenceCount: Int {
    swiftRetainCount(Unmanaged.passUnretained(self).toOpaque())
  }
}

@_silgen_name("swift_retainCount")
private func swiftRetainCount(_ object: UnsafeMutableRawPointer) -> Int
