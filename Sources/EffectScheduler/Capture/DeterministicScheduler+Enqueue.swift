import InstrumentationEntryPoints
import Synchronization

/// The scheduler as the runtime's executor: the jobs it is handed, from the driver thread or from
/// any other, and those of the global executor it takes.
extension DeterministicScheduler {
  var executor: UnownedTaskExecutor {
    if let unownedExecutor { return unownedExecutor }
    let executor = asUnownedTaskExecutor()
    unownedExecutor = executor
    return executor
  }

  /// Whether the calling thread is the one that drives this scheduler, running its controlled
  /// jobs: not while it runs a guest's (see ``hostAsGuest(_:)``). The Effects test machinery uses
  /// it to tell the program's own steps from work that comes back from outside (the main actor,
  /// another thread, a guest).
  package var isOnDriverThread: Bool {
    // Another thread never reads `hostsGuest`, which only the driver thread writes.
    isDriverThread && !hostsGuest
  }

  /// Whether the calling thread is this scheduler's driver thread, whatever job it runs.
  package var isDriverThread: Bool { activeThread.load(ordering: .relaxed) == ThreadIdentity.current }

  /// Takes a job from the runtime. Jobs from the driver thread join the ready jobs at once; jobs
  /// from any other thread wait in the mailbox until the driver collects them.
  public func enqueue(_ job: consuming ExecutorJob) {
    enqueue(UnownedJob(job), onMainActor: false)
  }

  /// Takes a job for the scheduler itself or, with `onMainActor`, for its stand-in for the main
  /// actor.
  func enqueue(_ job: UnownedJob, onMainActor: Bool) {
    if isOnDriverThread && isDriving {
      admit(job, fromOutside: false, onMainActor: onMainActor)
    } else {
      mailbox.post(job, onMainActor: onMainActor, runningLateOn: self)
    }
  }

  /// Takes a job the runtime meant for the global executor, handed over on the driver thread while
  /// it drives. A task the run has not seen is taken only if it is new, created by the program:
  /// tasks older than the root (a test's own task, resumed by the program) are passed on.
  func takeGlobalJob(_ job: UnownedJob) -> Bool {
    instrumentation_library_enter()
    defer { instrumentation_library_exit() }
    guard isDriving else { return false }
    let flags = JobFlags(job)
    let runtimeID = flags.isTask ? runtimeTaskID(job) : nil
    if let runtimeID {
      // Run on the scheduler, a task without a preference finds itself on the wrong executor
      // whenever it calls into nonisolated async code, and hops. On the global executor it would
      // have gone straight on, so the hop goes on within the same step.
      if runtimeID == running.runningRuntimeID, !running.runningOnMainActor {
        running.selfHop = job
        return true
      }
      if tasks.registry.id(forRuntimeID: runtimeID) == nil {
        guard runtimeID > tasks.rootRuntimeID else { return false }
        OwnedTasks.add(runtimeID, to: self)
        tasks.ownedRuntimeIDs.append(runtimeID)
      }
    }
    admit(job, fromOutside: false, onMainActor: false)
    if let runtimeID, let id = tasks.registry.id(forRuntimeID: runtimeID), !tasks.registry[id].held { tasks.registry[id].prefersNoExecutor = true }
    return true
  }
}
