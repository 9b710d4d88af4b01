#if canImport(Glibc)
  import Glibc
#endif
import Synchronization

// The concurrency runtime guards state that tasks share outside actors with locks of its own: a
// stream's buffer, which producers fill and a consumer drains whether or not it waits, and a task
// group's results. Two steps that take the same such lock may not commute, though no job shows it:
// two producers yielding into a stream that keeps only the newest element decide which one the
// consumer gets. So where a search asks (``StrategyReference/watchesHiddenAccesses``), the
// concurrency library's own slot for `pthread_mutex_lock` is pointed, on Linux, at a function that
// notes each heap lock a run's code takes on its driver thread, and takes it. Locks on the stack,
// and a task's own status lock, which the runtime takes as tasks start, suspend and switch, belong
// to no shared state and are not noted.

extension DeterministicScheduler {
  /// Notes that the running step took the runtime's lock at `address`.
  func noteRuntimeLock(at address: UInt) {
    // A task's own status lock, inside the task, which the runtime takes as tasks start, suspend
    // and are switched between: it guards no state the program shares.
    if registry.records.contains(where: { address >= $0.address && address < $0.address + Self.taskHeaderReach }) { return }
    let number: Int
    if let known = lockNumbers[address] {
      number = known
    } else {
      number = lockNumbers.count
      lockNumbers[address] = number
    }
    if lockTouches.last != LockTouch(step: step, lock: number) { lockTouches.append(LockTouch(step: step, lock: number)) }
  }

  /// How far into a task its own status lock may lie: Swift 6.3 keeps it 168 bytes in.
  private static let taskHeaderReach: UInt = 512
}

/// Installs the noting of the runtime's locks.
enum RuntimeLocks {
  /// How many runs in the process watch the runtime's locks now: while none does, every lock the
  /// runtime takes costs one atomic load more.
  static let watchingRuns = Atomic<Int>(0)

  /// Installs it the first time it is read, which a run that watches does; tells whether the
  /// slot was found.
  static let installed: Bool = {
    #if os(Linux) && _pointerBitWidth(_64)
      guard realLock != nil else { return false }
      let slots = ImportedFunctionSlot.slots(of: "pthread_mutex_lock", inLibraryDefining: "swift_get_time")
      for slot in slots { slot.redirect(to: unsafeBitCast(lock, to: UnsafeRawPointer.self)) }
      return !slots.isEmpty
    #else
      return false
    #endif
  }()

  #if os(Linux) && _pointerBitWidth(_64)
    private typealias Lock = @convention(c) (UnsafeMutablePointer<pthread_mutex_t>?) -> Int32

    private static let realLock: Lock? = {
      guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "pthread_mutex_lock") else { return nil }
      return unsafeBitCast(symbol, to: Lock.self)
    }()

    /// How far from a local variable an address may lie and still be on the calling thread's stack.
    private static let stackReach: UInt = 1 << 23

    private static let lock: Lock = { mutex in
      if RuntimeLocks.watchingRuns.load(ordering: .relaxed) > 0, let scheduler = DrivingThread.scheduler,
        scheduler.watchedHiddenAccesses, scheduler.isDriving, let mutex
      {
        let address = UInt(bitPattern: mutex)
        var local = 0
        let here = withUnsafeMutablePointer(to: &local) { UInt(bitPattern: $0) }
        if address > here + stackReach || address + stackReach < here { scheduler.noteRuntimeLock(at: address) }
      }
      return realLock!(mutex)
    }
  #endif
}
