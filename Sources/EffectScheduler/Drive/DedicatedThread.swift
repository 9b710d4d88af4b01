import Foundation

/// Runs `body` on a thread of its own, inside a task that inherits the caller's task-local
/// values, and returns its result.
///
/// A scheduler's driver thread blocks while work is outside the scheduler's control, so it must
/// not be a thread of the cooperative pool. Running the driver inside a task created here, rather
/// than on a bare thread, means every root task it creates copies the caller's task-local values:
/// a test's own context (Swift Testing's current test among them) reaches the program under test.
package func onDedicatedThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
  await Task(executorPreference: DedicatedThreadExecutor()) { body() }.value
}

/// Starts `body` on a thread of its own, inside a task, and returns at once. Called from code
/// that runs in a task, including synchronous code, the new task inherits that task's task-local
/// values, as ``onDedicatedThread(_:)``'s does.
package func startOnDedicatedThread(_ body: @escaping @Sendable () -> Void) {
  Task(executorPreference: DedicatedThreadExecutor()) { body() }
}

/// A task executor that runs each job it is handed on a thread of its own, with a generous stack,
/// from ``DriverThreadPool``.
private final class DedicatedThreadExecutor: TaskExecutor, Sendable {
  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    DriverThreadPool.run { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}

/// The threads that run dedicated threads' jobs, kept between jobs: starting a thread costs more
/// than an `explore` call of a few schedules spends exploring. A thread waits for its
/// next job for a few seconds, then ends, so a process keeps only the threads it uses now. It
/// sleeps without spinning first: a spinning thread took a core from the calling one, and made a
/// reduced search of a few schedules a fifth slower.
///
/// A thread here drives schedulers (``ThreadCensus/asDriverThread(_:)``) all its life, waiting
/// included: it runs other runs' programs only, and hands nothing to a run.
enum DriverThreadPool {
  /// A thread of the pool, and the job it is handed.
  private final class Worker: @unchecked Sendable {
    let signal = DispatchSemaphore(value: 0)
    /// Written by the thread that hands the job, before it signals; read after the wait.
    var job: (@Sendable () -> Void)?
  }

  /// The threads waiting for a job.
  private static let idle = IdleThreads<Worker>()
  /// How long a thread waits for a job before it ends.
  private static let idleLimit = DispatchTimeInterval.seconds(2)

  /// Runs `job` on a waiting thread of the pool, or on a new one.
  static func run(_ job: @escaping @Sendable () -> Void) {
    if let worker = idle.take() {
      worker.job = job
      worker.signal.signal()
      return
    }
    let worker = Worker()
    let thread = Thread { ThreadCensus.asDriverThread { serve(worker, first: job) } }
    thread.name = "EffectScheduler.driver"
    thread.stackSize = 8 << 20
    thread.start()
  }

  /// Runs `first`, then each job handed to `worker`, until it has waited in vain.
  private static func serve(_ worker: Worker, first: @Sendable () -> Void) {
    first()
    while true {
      idle.add(worker)
      var job: (@Sendable () -> Void)?
      while job == nil {
        // Taken out of the pool by now, it has a job coming: wait for its signal.
        if worker.signal.wait(timeout: .now() + idleLimit) == .timedOut, idle.leave(worker) { return }
        job = worker.job
      }
      worker.job = nil
      job?()
    }
  }
}
