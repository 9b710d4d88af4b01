import Foundation

/// Runs `body` on a new thread of its own, inside a task that inherits the caller's task-local
/// values, and returns its result.
///
/// A scheduler's driver thread blocks while work is outside the scheduler's control, so it must
/// not be a thread of the cooperative pool. Running the driver inside a task created here, rather
/// than on a bare thread, means every root task it creates copies the caller's task-local values:
/// a test's own context (Swift Testing's current test among them) reaches the program under test.
package func onDedicatedThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
  await Task(executorPreference: DedicatedThreadExecutor()) { body() }.value
}

/// Starts `body` on a new thread of its own, inside a task, and returns at once. Called from code
/// that runs in a task, including synchronous code, the new task inherits that task's task-local
/// values, as ``onDedicatedThread(_:)``'s does.
package func startOnDedicatedThread(_ body: @escaping @Sendable () -> Void) {
  Task(executorPreference: DedicatedThreadExecutor()) { body() }
}

/// A task executor that gives each job it is handed a new thread with a generous stack.
private final class DedicatedThreadExecutor: TaskExecutor, Sendable {
  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let thread = Thread { ThreadCensus.asDriverThread { job.runSynchronously(on: self.asUnownedTaskExecutor()) } }
    thread.name = "EffectScheduler.driver"
    thread.stackSize = 8 << 20
    thread.start()
  }
}
