#if os(Linux) && _pointerBitWidth(_64)
import Dispatch
import Synchronization

/// A task executor that runs nothing by itself: the probe that made it runs the jobs it was
/// handed, one at a time, on the probe's own thread, so a probe's tasks take the steps it chooses
/// and never the cooperative pool's threads or a scheduler's.
final class ProbeExecutor: TaskExecutor, @unchecked Sendable {
  private let jobs = Mutex<[UnownedJob]>([])
  /// Signalled once a job for each job enqueued, for a probe that waits for one from another thread.
  private let arrived = DispatchSemaphore(value: 0)
  /// For each job the runtime enqueued to drain a default actor, as it drains one for a task that
  /// prefers this executor, the actor `readDefaultActorAddress(ofJob:)` reads from it, or 0:
  /// read as it is enqueued, while the job lives (see ``RuntimeMechanism/actorJobs``).
  let drainedActors = Mutex<[UInt]>([])

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    if JobFlags(job).rawValue & 0xFF == 0xC1 { drainedActors.withLock { $0.append(readDefaultActorAddress(ofJob: job) ?? 0) } }
    jobs.withLock { $0.append(job) }
    arrived.signal()
  }

  /// Runs the jobs enqueued, oldest first, those they enqueue included, until `until` holds,
  /// `limit` jobs have run, or none is left and none came within `patience`. Returns whether
  /// `until` holds at the end.
  @discardableResult
  func runJobs(limit: Int = 64, patience: DispatchTimeInterval = .seconds(0), until: () -> Bool = { false }) -> Bool {
    let deadline = DispatchTime.now() + patience
    var ran = 0
    while ran < limit, !until() {
      if let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
        job.runSynchronously(on: asUnownedTaskExecutor())
        ran += 1
      } else if arrived.wait(timeout: deadline) == .timedOut {
        break
      }
    }
    return until()
  }
}
#endif
