import Dispatch
import Synchronization

/// A task executor whose jobs run on a scheduler's driver thread while the scheduler has nothing
/// else to do, outside its control: for code that waits on the program turn by turn, such as a
/// `withTestHandler` script, so that a hand-off between the two is a job switch on one thread
/// rather than two threads waking each other.
///
/// Jobs wait here until the host runs them (``runQueuedJobs()``), which the host does when it is
/// idle. A thread that blocks in a synchronous effect only the guest can answer runs them too
/// while it waits (``runQueuedJobs(until:wakingOn:)``), whether it is the host's or one the
/// program made: the host may itself be blocked waiting for that thread. Before a host attaches
/// jobs wait; once it has detached they run on the shared pool, so a guest that outlives its
/// host's run still finishes.
package final class GuestExecutor: TaskExecutor, Sendable {
  private enum Host {
    case notYet
    case attached(DeterministicScheduler)
    case detached
  }

  private struct State {
    var host = Host.notYet
    var jobs: [UnownedJob] = []
    /// Empty storage for the next queue, from the batch that ran last.
    var spare: [UnownedJob] = []
    /// What wakes each thread blocked in ``runQueuedJobs(until:wakingOn:)``.
    var blockedThreads: [WakeUpSignal] = []
  }

  private let state = Mutex(State())

  package init() {}

  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let (host, blockedThreads): (Host, [WakeUpSignal]) = state.withLock { state in
      if case .detached = state.host { return (.detached, []) }
      state.jobs.append(job)
      return (state.host, state.blockedThreads)
    }
    // Whichever thread looks first runs the job: one blocked in a synchronous effect, or the host
    // once idle (a host about to wait in its drive loop is sent round once more).
    for blocked in blockedThreads { blocked.signal() }
    switch host {
    case .notYet:
      // The host runs what waits here once it attaches and first finds itself idle.
      break
    case .attached(let scheduler):
      scheduler.wakeUpDriver()
    case .detached:
      runOnSharedPool(job)
    }
  }

  /// Makes `scheduler` the host. Call it on its driver thread.
  package func attach(to scheduler: DeterministicScheduler) {
    state.withLock { $0.host = .attached(scheduler) }
  }

  /// Ends the hosting, once the host's run is over: jobs still waiting, and any that arrive
  /// later, run on the shared pool.
  package func detach() {
    let leftover = state.withLock { state in
      state.host = .detached
      defer { state.jobs = [] }
      return state.jobs
    }
    for job in leftover { runOnSharedPool(job) }
  }

  /// Whether the calling thread is the host's driver thread, whether it runs a guest's job or the
  /// scheduler's.
  package var isOnHostThread: Bool {
    guard case .attached(let scheduler) = state.withLock({ $0.host }) else { return false }
    return scheduler.isDriverThread
  }

  /// Runs the jobs waiting, on the host's driver thread as its guests; returns whether there were
  /// any. Jobs they enqueue wait for the next call, so that a guest that only yields, waiting for
  /// the program to move, lets the host go on with the program between two of its jobs. Call it on
  /// the host's driver thread, between two of the scheduler's jobs, or on a thread that blocks
  /// waiting on the guest.
  @discardableResult
  package func runQueuedJobs() -> Bool {
    var batch: [UnownedJob] = []
    let scheduler: DeterministicScheduler? = state.withLock { state in
      guard case .attached(let scheduler) = state.host, !state.jobs.isEmpty else { return nil }
      // The queue takes the spare storage, and the batch the queue's: no allocation per batch.
      swap(&batch, &state.spare)
      swap(&batch, &state.jobs)
      return scheduler
    }
    guard let scheduler else { return false }
    let executor = asUnownedTaskExecutor()
    if scheduler.isDriverThread {
      scheduler.hostAsGuest {
        for job in batch { job.runSynchronously(on: executor) }
      }
    } else {
      for job in batch { job.runSynchronously(on: executor) }
    }
    batch.removeAll(keepingCapacity: true)
    state.withLock { swap(&$0.spare, &batch) }
    return true
  }

  /// Blocks the calling thread until `isDone`, running the guest's jobs as they arrive: for a
  /// synchronous effect of the program, which only the guest answers. `wakeUp` wakes the thread,
  /// for each job that arrives and, given by whoever makes `isDone` true, for the answer.
  package func runQueuedJobs(until isDone: () -> Bool, wakingOn wakeUp: WakeUpSignal) {
    state.withLock { $0.blockedThreads.append(wakeUp) }
    defer { state.withLock { $0.blockedThreads.removeAll { $0 === wakeUp } } }
    while !isDone() {
      if runQueuedJobs() { continue }
      // A signal given since the last look is kept, so nothing that arrived in between is missed.
      _ = wakeUp.wait()
    }
  }

  /// Runs a job that arrived after the host detached; the executor stays its task executor, so
  /// the task keeps coming back here, and so to the pool.
  private func runOnSharedPool(_ job: UnownedJob) {
    DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
