import Dispatch
import Synchronization

/// Where jobs handed to a scheduler from threads it does not own wait until its driver thread
/// picks them up. It is the only part of a scheduler touched by more than one thread.
final class Mailbox: Sendable {
  /// What becomes of jobs that arrive after the run stopped.
  enum Phase {
    case running
    /// The program finished: late jobs run, serially, outside the scheduler's control.
    case finished
    /// The run was stopped by a failure: late jobs are dropped, so a livelock cannot go on, but
    /// for those of plain tasks the run adopted, which go to the global executor, as they would
    /// have without the run (see ExecutorAdoption.swift).
    case abandoned
  }

  /// A job handed over, and whether it is for the scheduler's stand-in for the main actor.
  struct Mail {
    let job: UnownedJob
    let onMainActor: Bool
  }

  private struct State {
    var phase = Phase.running
    var jobs: [Mail] = []
    var everReceived = false
    /// The runtime ids of the adopted tasks whose late jobs go to the global executor.
    var releasedTasks: Set<UInt64> = []
  }

  private let state = Mutex(State())
  private let hasMail = Atomic<Bool>(false)
  /// Announced hand-backs: an atomic, as the test script adjusts it at every hand-off.
  private let expected = Atomic<Int>(0)
  private let wakeUp = WakeUpSignal()
  private let lateJobs = Mutex<DispatchQueue?>(nil)

  /// Whether a job is waiting; cheap enough to check before every step.
  var isEmpty: Bool { !hasMail.load(ordering: .acquiring) }

  /// Whether any job ever arrived from outside during the run.
  var everReceived: Bool { state.withLock { $0.everReceived } }

  /// How many hand-backs from outside are announced and not yet withdrawn.
  var expectedFromOutside: Int { expected.load(ordering: .acquiring) }

  /// Announces (`+1`) or withdraws (`-1`) a hand-back from outside, and wakes the driver so it
  /// reconsiders how long to wait.
  func adjustExpectedFromOutside(by delta: Int) {
    expected.add(delta, ordering: .acquiringAndReleasing)
    wakeUp.signal()
  }

  /// Wakes the driver if it waits, so that it looks again at what it waits for.
  func wakeUpDriver() {
    wakeUp.signal()
  }

  /// Hands over a job from a thread the scheduler does not own.
  func post(_ job: UnownedJob, onMainActor: Bool = false, runningLateOn scheduler: DeterministicScheduler) {
    let mail = Mail(job: job, onMainActor: onMainActor)
    let phase = state.withLock { state in
      if state.phase == .running {
        state.jobs.append(mail)
        state.everReceived = true
      }
      return state.phase
    }
    switch phase {
    case .running:
      hasMail.store(true, ordering: .releasing)
      wakeUp.signal()
    case .finished:
      runLate(mail, on: scheduler)
    case .abandoned:
      releaseIfAdopted(mail)
    }
  }

  /// Sends the late jobs of these adopted tasks, unfinished when the run was abandoned, to the
  /// global executor. Called before ``close(_:runningLateOn:)``.
  func releaseLateJobs(ofTasks runtimeIDs: [UInt64]) {
    guard !runtimeIDs.isEmpty else { return }
    state.withLock { $0.releasedTasks.formUnion(runtimeIDs) }
  }

  /// A trampoline goes too: all it does is hand the task it resumes back to its executor, which
  /// drops it unless it is a released task. The job goes past the hooks, to the executor it would
  /// have gone to without the run: routed, it would come back to this mailbox while the scheduler
  /// still owns the task (see HandingOn.swift).
  private func releaseIfAdopted(_ mail: Mail) {
    let flags = JobFlags(mail.job)
    guard flags.isContinuationTrampoline || flags.isTask && isReleased(runtimeTaskID(mail.job)) else { return }
    HandingOn.mark { globalConcurrentExecutor.enqueue(ExecutorJob(mail.job)) }
  }

  private func isReleased(_ runtimeID: UInt64) -> Bool {
    state.withLock { $0.releasedTasks.contains(runtimeID) }
  }

  /// Takes every waiting job, in arrival order.
  func collect() -> [Mail] {
    hasMail.store(false, ordering: .releasing)
    return state.withLock { state in
      defer { state.jobs.removeAll() }
      return state.jobs
    }
  }

  /// What ended a wait.
  enum WaitResult {
    /// A job is waiting.
    case mail
    /// Someone woke the driver without a job, for example by withdrawing an announcement.
    case wokenUp
    /// The timeout passed.
    case timedOut
  }

  /// Blocks until a job arrives, the driver is woken, or `timeout` passes. With no timeout it
  /// waits as long as it takes. Work from the test machinery usually comes back within
  /// microseconds, so the driver spins briefly before it parks (see ``WakeUpSignal``).
  func waitForMail(timeout: Duration?) -> WaitResult {
    if !isEmpty { return .mail }
    let deadline = timeout.map { timeout in
      let nanoseconds = timeout.nanoseconds
      return nanoseconds == .max ? DispatchTime.distantFuture : DispatchTime.now() + .nanoseconds(Int(clamping: nanoseconds))
    }
    if !wakeUp.wait(until: deadline) { return isEmpty ? .timedOut : .mail }
    return isEmpty ? .wokenUp : .mail
  }

  /// Opens the mailbox for another run of a scheduler whose run ended cleanly.
  func reopen() {
    state.withLock { $0 = State() }
    hasMail.store(false, ordering: .releasing)
    expected.store(0, ordering: .releasing)
  }

  /// Ends the run; jobs still waiting are dropped or run late according to `phase`.
  func close(_ phase: Phase, runningLateOn scheduler: DeterministicScheduler) {
    let leftover = state.withLock { state in
      state.phase = phase
      defer { state.jobs.removeAll() }
      return state.jobs
    }
    hasMail.store(false, ordering: .releasing)
    for mail in leftover {
      if phase == .finished { runLate(mail, on: scheduler) } else { releaseIfAdopted(mail) }
    }
  }

  /// Runs a job that arrived after its program finished, one at a time with this scheduler's
  /// other late jobs, on a queue made the first time one arrives: they are rare, and no run waits
  /// for them.
  private func runLate(_ mail: Mail, on scheduler: DeterministicScheduler) {
    let queue = lateJobs.withLock { queue in
      if let queue { return queue }
      let created = DispatchQueue(label: "EffectScheduler.late-jobs")
      queue = created
      return created
    }
    queue.async {
      if mail.onMainActor {
        mail.job.runSynchronously(
          isolatedTo: scheduler.mainActorExecutor.asUnownedSerialExecutor(), taskExecutor: scheduler.asUnownedTaskExecutor())
      } else {
        mail.job.runSynchronously(on: scheduler.asUnownedTaskExecutor())
      }
    }
  }
}
