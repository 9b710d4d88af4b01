import Dispatch

/// A job paused in the middle of its synchronous code, at a controlled lock or atomic, whose
/// thread waits to go on with it (see DeterministicScheduler+Pausing.swift).
///
/// While it is ready to go on, a stand-in for it sits among the scheduler's ready jobs, described
/// by the same ``ReadyJob`` as the step it paused in: a strategy sees the same task, or the same
/// actor's job, go on.
final class PausedJob {
  /// The thread the job runs on, parked.
  let host: HostThread
  /// The step's description, which the stand-in repeats.
  let info: ReadyJob
  /// The task whose code was running when the job paused: the one that holds or waits on locks.
  let task: TaskID?
  /// What the scheduler knew of the running job, restored when it goes on.
  let runningTask: TaskID?
  let runningRuntimeID: UInt64
  let runningJob: UnownedJob?
  let runningOnMainActor: Bool
  /// Whether the job's task was watched for completion (see `ActiveRun`).
  let watchedCompletion: Bool
  /// For an actor's job, the actor and the tasks it had been seen running.
  let actor: Int?
  let actorTasks: [TaskID]?
  /// Whether an actor's job paused where it handed a job over, and the actor's address.
  var handOff = false
  var actorAddress: UInt?
  /// The lock the job waits for, or `nil` while it is ready to go on.
  var blockedOn: ControlledLock?

  init(
    host: HostThread, info: ReadyJob, task: TaskID?, runningTask: TaskID?, runningRuntimeID: UInt64,
    runningJob: UnownedJob?, runningOnMainActor: Bool, watchedCompletion: Bool, actor: Int?, actorTasks: [TaskID]?
  ) {
    self.host = host
    self.info = info
    self.task = task
    self.runningTask = runningTask
    self.runningRuntimeID = runningRuntimeID
    self.runningJob = runningJob
    self.runningOnMainActor = runningOnMainActor
    self.watchedCompletion = watchedCompletion
    self.actor = actor
    self.actorTasks = actorTasks
  }

  /// The stand-in among the ready jobs: never run, only recognised by its address.
  var standIn: UnownedJob {
    unsafeBitCast(Unmanaged.passUnretained(self).toOpaque(), to: UnownedJob.self)
  }
}

/// The threads whose jobs were paused when their run ended, let go on one at a time, outside the
/// scheduler's control, so that their code unwinds and their threads come free.
///
/// A job paused waiting for an uncontrolled lock (LockPauses.swift) takes it as soon as it goes
/// on, so it goes after the others, and once no other job of the chain still holds that lock in a
/// way that blocks it, where it can: in a deadlock over such locks each would block its thread for
/// good on one the other holds. Where each waits for one another holds, they go on regardless, and
/// skip the acquire (``LockPauses/Acquire/skipped``), as a job going on does for any lock a job of
/// the chain still parked holds that way.
final class OrphanedJobs: @unchecked Sendable {
  private var remaining: [HostThread]
  /// The jobs passed over, for a lock another job of the chain held then.
  private var passedOver: [HostThread] = []
  private let done = DispatchSemaphore(value: 0)

  init(_ hosts: [HostThread]) {
    remaining = hosts.reversed()
    // Taken from the end: the jobs that wait for a lock last.
    if hosts.contains(where: { $0.waitsFor != nil }) {
      remaining = (hosts.filter { $0.waitsFor == nil } + hosts.filter { $0.waitsFor != nil }).reversed()
    }
  }

  /// Lets the next paused job go on; after the last, says the chain is done.
  func passOn() {
    if let next = takeNext() {
      next.orphans = self
      next.wake(.runIsOver)
    } else {
      done.signal()
    }
  }

  /// The next job to let go on: one that waits for no lock, or for one no job of the chain holds
  /// in a way that blocks it now; or else the first passed over, which skips its acquire.
  private func takeNext() -> HostThread? {
    while let next = remaining.popLast() {
      guard let acquire = next.waitsFor, parkedJobBlocks(acquire) else { return next }
      passedOver.append(next)
    }
    guard !passedOver.isEmpty else { return nil }
    return passedOver.remove(at: passedOver.firstIndex { !parkedJobBlocks($0.waitsFor!) } ?? 0)
  }

  /// Whether a job of the chain not yet let go, or passed over, holds the lock of `acquire` in a
  /// way that blocks it. Read by the one job of the chain going on.
  func parkedJobBlocks(_ acquire: LockAcquire) -> Bool {
    acquire.isBlocked && (remaining.contains { acquire.isBlocked(by: $0) } || passedOver.contains { acquire.isBlocked(by: $0) })
  }

  /// Waits for the chain to end, at most `timeout`: a job that blocks for good outside the
  /// scheduler's control is left to it.
  func waitForTheEnd(timeout: Duration) {
    _ = done.wait(timeout: .now() + .nanoseconds(Int(timeout.nanoseconds)))
  }
}
