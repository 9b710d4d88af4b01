#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import Synchronization

// Two process-wide hooks of the concurrency runtime bring code that does not prefer the scheduler
// under its control:
// - `swift_task_enqueueGlobal_hook` sees every job bound for the global executor: the jobs of
//   plain `Task {}` and `Task.detached {}`, and of the default actors they call. Where the
//   toolchain lets the default executor be replaced, a router in its place does this instead.
// - `swift_task_getMainExecutor_hook` is asked for the main actor's executor on every hop to the
//   main actor; on a driver thread it answers with that scheduler's stand-in for the main actor.
// Both are installed once, chain to whatever was installed before, are put back in front of a
// hook another library installs later without chaining each time a run starts (see `HookSlot`),
// and touch only work of a driver thread while it drives or of a task a running scheduler owns;
// everything else passes on untouched, so code outside any scheduler and parallel runs are
// unaffected.

typealias EnqueueGlobalOriginal = @convention(thin) (UnownedJob) -> Void
typealias EnqueueGlobalHook = @convention(thin) (UnownedJob, EnqueueGlobalOriginal) -> Void
typealias GetMainExecutorOriginal = @convention(thin) () -> UnownedSerialExecutor
typealias GetMainExecutorHook = @convention(thin) (GetMainExecutorOriginal) -> UnownedSerialExecutor

@usableFromInline
package enum RuntimeHooks {
  /// How many runs are under way in the process. While there are none, the hooks pass every job
  /// on after one atomic load.
  @usableFromInline package static let runsUnderWay = Atomic<Int>(0)

  /// The runtime's hook variables, with ours in front; set once, when the hooks are installed.
  nonisolated(unsafe) private static var enqueueGlobalSlot: HookSlot<EnqueueGlobalHook>?
  nonisolated(unsafe) private static var getMainExecutorSlot: HookSlot<GetMainExecutorHook>?

  /// Routes a job bound for the global executor: to the scheduler that owns it, or on to the hook
  /// installed before, or the runtime's own enqueue.
  private static let enqueueGlobal: EnqueueGlobalHook = { job, original in
    if RuntimeHooks.runsUnderWay.load(ordering: .relaxed) > 0, RuntimeHooks.route(job) { return }
    guard let slot = RuntimeHooks.enqueueGlobalSlot else { return original(job) }
    slot.chain({ previous in previous(job, original) }, otherwise: { original(job) })
  }

  /// Answers "the main actor" with the stand-in of the scheduler driving the calling thread, or
  /// asks the hook installed before, or the runtime.
  private static let getMainExecutor: GetMainExecutorHook = { original in
    if RuntimeHooks.runsUnderWay.load(ordering: .relaxed) > 0, let scheduler = DrivingThread.scheduler {
      return scheduler.mainActorExecutor.asUnownedSerialExecutor()
    }
    guard let slot = RuntimeHooks.getMainExecutorSlot else { return original() }
    return slot.chain({ previous in previous(original) }, otherwise: original)
  }

  /// Installs the routing of global jobs and the main-executor hook the first time it is read;
  /// later reads do nothing. Global jobs are routed by the default executor's redirect where the
  /// toolchain has it (see `DefaultExecutorRedirect`), since it sees every job the enqueue hook
  /// would and more, and by the enqueue hook elsewhere.
  static let installed: Void = {
    var redirectsDefaultExecutor = false
    #if compiler(>=6.3)
      if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) {
        redirectsDefaultExecutor = DefaultExecutorRedirect.install()
      }
    #endif
    guard let handle = dlopen(nil, RTLD_NOW) else { return }
    if let symbol = dlsym(handle, "swift_task_enqueueGlobal_hook") {
      enqueueGlobalSlot = HookSlot(at: symbol, ours: enqueueGlobal)
      if !redirectsDefaultExecutor { enqueueGlobalSlot?.claim(evenIfUnset: true) }
    }
    if let symbol = dlsym(handle, "swift_task_getMainExecutor_hook") {
      getMainExecutorSlot = HookSlot(at: symbol, ours: getMainExecutor)
      getMainExecutorSlot?.claim(evenIfUnset: true)
    }
  }()

  /// Puts the hooks back in front of any another library installed since without chaining, as
  /// every run does when it starts (see `HookSlot`): with swift-concurrency-extras'
  /// `withMainSerialExecutor` the runtime hands its enqueue hook, not the default executor's
  /// router, every job bound for the global executor, the run's plain tasks among them. The enqueue
  /// hook is only claimed where another is set: where none is, the router routes.
  static func claimHooks() {
    enqueueGlobalSlot?.claim(evenIfUnset: false)
    getMainExecutorSlot?.claim(evenIfUnset: true)
    // And the redirected slots: the run's reads of the clocks, and its hand-offs to Dispatch.
    VirtualClockReads.redirections.claim()
    DispatchHandOffs.redirections.claim()
  }

  /// Puts the enqueue hook back in front of one another library installed since without
  /// chaining, as each step does before its job runs: the program under test may install one
  /// itself, as a call of swift-concurrency-extras' `withMainSerialExecutor` in the explored body
  /// does, and the plain tasks its later steps start would otherwise go to that hook, which runs
  /// them on the real main queue, outside the run. A look that finds this library's hook in front,
  /// or none, costs a load.
  static func reclaimEnqueueHook() {
    enqueueGlobalSlot?.claim(evenIfUnset: false)
  }

  /// Hands a job bound for the global executor to the scheduler that owns it: the one driving
  /// this thread, or the one whose task it is. Returns whether a scheduler took it; never from
  /// inside a hand-on of the hooks' own (see HandingOn.swift), whose jobs are no run's.
  static func route(_ job: UnownedJob) -> Bool {
    guard !HandingOn.isUnderWay else { return false }
    if let scheduler = DrivingThread.scheduler { return scheduler.takeGlobalJob(job) }
    guard JobFlags(job).isTask, let scheduler = OwnedTasks.owner(ofRuntimeID: runtimeTaskID(job)) else { return false }
    // The mailbox of a run that ended may hand the job back to the global executor.
    HandingOn.mark { scheduler.mailbox.post(job, runningLateOn: scheduler) }
    return true
  }
}

/// Which scheduler, if any, the calling thread drives right now.
enum DrivingThread {
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// The scheduler this thread drives, while it drives.
  static var scheduler: DeterministicScheduler? {
    guard let pointer = pthread_getspecific(key) else { return nil }
    return Unmanaged<DeterministicScheduler>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// Calls `body` with the scheduler this thread drives, if any, without retaining it: for hooks
  /// called many times a step, such as the lock slots' (see ``VisibleLocks``). The scheduler
  /// outlives every call, as it drives the thread until its run ends.
  static func withScheduler(_ body: (DeterministicScheduler) -> Void) {
    guard let pointer = pthread_getspecific(key) else { return }
    Unmanaged<DeterministicScheduler>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
  }

  /// Marks the calling thread as driving `scheduler` (or nothing, with `nil`).
  static func set(_ scheduler: DeterministicScheduler?) {
    pthread_setspecific(key, scheduler.map { UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque()) })
  }
}

/// The tasks without an executor preference that running schedulers own, by runtime task id, so a
/// job of theirs handed to the global executor from another thread reaches its scheduler.
enum OwnedTasks {
  private static let owners = Mutex<[UInt64: Unmanaged<DeterministicScheduler>]>([:])

  static func owner(ofRuntimeID id: UInt64) -> DeterministicScheduler? {
    owners.withLock { $0[id]?.takeUnretainedValue() }
  }

  static func add(_ id: UInt64, to scheduler: DeterministicScheduler) {
    owners.withLock { $0[id] = Unmanaged.passUnretained(scheduler) }
  }

  static func remove(_ ids: [UInt64]) {
    guard !ids.isEmpty else { return }
    owners.withLock { owners in
      for id in ids { owners[id] = nil }
    }
  }
}
