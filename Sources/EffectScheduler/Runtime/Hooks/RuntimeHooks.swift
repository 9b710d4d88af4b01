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
// Both are installed once, chain to whatever was installed before, and touch only work of a
// driver thread while it drives or of a task a running scheduler owns; everything else passes on
// untouched, so code outside any scheduler and parallel runs are unaffected.

typealias EnqueueGlobalOriginal = @convention(thin) (UnownedJob) -> Void
typealias EnqueueGlobalHook = @convention(thin) (UnownedJob, EnqueueGlobalOriginal) -> Void
typealias GetMainExecutorOriginal = @convention(thin) () -> UnownedSerialExecutor
typealias GetMainExecutorHook = @convention(thin) (GetMainExecutorOriginal) -> UnownedSerialExecutor

enum RuntimeHooks {
  /// How many runs are under way in the process. While there are none, the hooks pass every job
  /// on after one atomic load.
  static let runsUnderWay = Atomic<Int>(0)

  /// The enqueue hook that was installed before ours, called for everything ours passes on, as
  /// the bits of its function pointer (`0` for none): a run may change it while other threads call
  /// the hook (see ``claimEnqueueGlobalHook()``).
  private static let previousEnqueueGlobal = Atomic<UInt>(0)
  nonisolated(unsafe) private static var previousGetMainExecutor: GetMainExecutorHook?
  /// Serializes ``claimEnqueueGlobalHook()``.
  private static let claiming = Mutex(())
  /// Where the runtime keeps its enqueue hook, if it has one.
  nonisolated(unsafe) private static var enqueueGlobalHookSlot: UnsafeMutablePointer<EnqueueGlobalHook?>?

  /// Routes a job bound for the global executor: to the scheduler that owns it, or on to the hook
  /// installed before, or the runtime's own enqueue.
  private static let enqueueGlobal: EnqueueGlobalHook = { job, original in
    if RuntimeHooks.runsUnderWay.load(ordering: .relaxed) > 0, RuntimeHooks.route(job) { return }
    let previous = RuntimeHooks.previousEnqueueGlobal.load(ordering: .acquiring)
    if previous != 0 {
      unsafeBitCast(previous, to: EnqueueGlobalHook.self)(job, original)
    } else {
      original(job)
    }
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
      enqueueGlobalHookSlot = symbol.assumingMemoryBound(to: EnqueueGlobalHook?.self)
      if !redirectsDefaultExecutor { claimEnqueueGlobalHook(evenIfUnset: true) }
    }
    if let symbol = dlsym(handle, "swift_task_getMainExecutor_hook") {
      let hook = symbol.assumingMemoryBound(to: GetMainExecutorHook?.self)
      previousGetMainExecutor = hook.pointee
      hook.pointee = { original in
        if RuntimeHooks.runsUnderWay.load(ordering: .relaxed) > 0, let scheduler = DrivingThread.scheduler {
          return scheduler.mainActorExecutor.asUnownedSerialExecutor()
        }
        if let previous = RuntimeHooks.previousGetMainExecutor { return previous(original) }
        return original()
      }
    }
  }()

  /// Puts the enqueue hook in front of one another library installed after it, chaining to that
  /// one, as every run does when it starts: swift-concurrency-extras' `withMainSerialExecutor`,
  /// say, sets the hook to its own for the length of a test without chaining, and the runtime then
  /// hands the hook, not the default executor, every job bound for the global executor, the run's
  /// plain tasks among them. When that library puts back what it found, the hook in front goes
  /// with it, and the default executor's router routes as before. With `evenIfUnset` it installs
  /// the hook where none is set, as on toolchains without the router.
  static func claimEnqueueGlobalHook(evenIfUnset: Bool = false) {
    guard let slot = enqueueGlobalHookSlot else { return }
    let ours = unsafeBitCast(enqueueGlobal, to: UInt.self)
    func needsClaim() -> UInt? {
      let current = slot.pointee.map { unsafeBitCast($0, to: UInt.self) } ?? 0
      return current != ours && (current != 0 || evenIfUnset) ? current : nil
    }
    // Every run looks, so the look takes no lock: the runtime reads the hook the same way.
    guard needsClaim() != nil else { return }
    claiming.withLock { _ in
      guard let current = needsClaim() else { return }
      previousEnqueueGlobal.store(current, ordering: .releasing)
      slot.pointee = enqueueGlobal
    }
  }

  /// Hands a job bound for the global executor to the scheduler that owns it: the one driving
  /// this thread, or the one whose task it is. Returns whether a scheduler took it.
  static func route(_ job: UnownedJob) -> Bool {
    if let scheduler = DrivingThread.scheduler { return scheduler.takeGlobalJob(job) }
    guard JobFlags(job).isTask, let scheduler = OwnedTasks.owner(ofRuntimeID: runtimeTaskID(job)) else { return false }
    scheduler.mailbox.post(job, runningLateOn: scheduler)
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
