#if canImport(Glibc)
  import Glibc
#endif
import Synchronization

// Where a run asks (`SchedulerConfiguration.pausesAtUncontrolledLocks`), each acquire of a lock
// the scheduler does not control, made through the program's or Foundation's slots (see
// VisibleLocks.swift), is a scheduling point before the lock is taken: the job pauses there, as at
// a drop-in's acquire, and other ready jobs may run first. Which locks a thread holds is followed
// through the same slots and those of `pthread_mutex_unlock` and `pthread_rwlock_unlock`: a job
// that holds one does not pause, since a job waiting for the lock it keeps would block the run's
// only running thread. So a job never pauses at a scheduling point holding such a lock, and one
// that goes on after its pause takes the lock at once, unless a thread outside the run holds it,
// or a job paused waiting for a drop-in does: then it waits for the mutex, paused, as for a
// drop-in (a cycle of such waits is a deadlock the report names), holding other such locks or
// not, since taking it would block the run's only running thread for good. An attempt that fails
// when the lock is held (`pthread_mutex_trylock`, `NSLock.try()`) does not wait: it fails, as it
// would on real threads. A lock taken through a followed slot and let go through another is taken
// for held until the run ends: the thread's jobs then take their locks without pausing, as they
// would without the option.

/// The scheduling points before the acquires of uncontrolled locks.
enum LockPauses {
  /// How many runs that pause at uncontrolled locks are under way in the process: while none is,
  /// a lock taken through a redirected slot costs one atomic load more.
  static let runsUnderWay = Atomic<Int>(0)

  /// Before the calling thread takes the program's lock at `lock`: pauses the running job if its
  /// scheduler asks and it may. Returns whether the acquire is a controlled one: made where the
  /// scheduler asks, holding no other such lock, and outside a cancellation handler.
  /// `isMutex` for a `pthread_mutex_t`, whose holder glibc records; `waits` unless the acquire is
  /// an attempt that fails when the lock is held.
  static func pauseBefore(_ lock: UnsafeRawPointer?, isMutex: Bool, waits: Bool) -> Bool {
    guard runsUnderWay.load(ordering: .relaxed) > 0, let lock else { return false }
    var controlled = false
    DrivingThread.withScheduler { scheduler in
      controlled = scheduler.pauseBeforeUncontrolledLock(at: UInt(bitPattern: lock), isMutex: isMutex, waits: waits)
    }
    return controlled
  }

  /// After the calling thread took the program's lock at `lock` under a scheduler that pauses at
  /// such locks: it holds it until it lets go.
  static func took(_ lock: UnsafeRawPointer?) {
    guard runsUnderWay.load(ordering: .relaxed) > 0, let lock else { return }
    DrivingThread.withScheduler { scheduler in
      guard scheduler.pausesAtLocks, let host = HostThread.current else { return }
      host.heldLocks.append(UInt(bitPattern: lock))
    }
  }

  /// Before the calling thread lets go of the lock at `lock`: the jobs of its run waiting for it
  /// may go on.
  static func released(_ lock: UnsafeRawPointer?) {
    guard runsUnderWay.load(ordering: .relaxed) > 0, let lock, let host = HostThread.current, !host.heldLocks.isEmpty else { return }
    let address = UInt(bitPattern: lock)
    if let index = host.heldLocks.lastIndex(of: address) { host.heldLocks.remove(at: index) }
    DrivingThread.withScheduler { scheduler in
      if !scheduler.uncontrolledLockStandIns.isEmpty { scheduler.letGoOfUncontrolledLock(at: address) }
    }
  }

  #if os(Linux) && _pointerBitWidth(_64)
    private typealias Unlock = @convention(c) (UnsafeMutableRawPointer?) -> Int32

    private static let realMutexUnlock: Unlock? = runtimeFunction("pthread_mutex_unlock")
    private static let realReadWriteUnlock: Unlock? = runtimeFunction("pthread_rwlock_unlock")
    private static let mutexUnlock: Unlock = { lock in
      released(lock.map(UnsafeRawPointer.init))
      return realMutexUnlock!(lock)
    }
    private static let readWriteUnlock: Unlock = { lock in
      released(lock.map(UnsafeRawPointer.init))
      return realReadWriteUnlock!(lock)
    }
  #endif

  /// The `pthread_mutex_unlock` slots of Foundation and of the image holding this code, and its
  /// `pthread_rwlock_unlock` slots, those whose locks VisibleLocks.swift notes as the program's,
  /// pointed at functions that follow which locks a thread holds; claimed by the first run that
  /// pauses at uncontrolled locks.
  static let unlockRedirections: SlotRedirections = {
    #if os(Linux) && _pointerBitWidth(_64)
      guard realMutexUnlock != nil, realReadWriteUnlock != nil else { return SlotRedirections([]) }
      // Made first, its set-up has called each unlock function through this image's slots,
      // which binds them if the dynamic linker binds lazily.
      _ = VisibleLocks.redirections
      let mutexSlots = VisibleLocks.programSlots(of: "pthread_mutex_unlock", besides: VisibleLocks.runtimeSlots(of: "pthread_mutex_unlock"))
      // Foundation and the concurrency library take no read–write lock.
      let readWriteSlots = VisibleLocks.programSlots(of: "pthread_rwlock_unlock", besides: [])
      return SlotRedirections(
        mutexSlots.map { ($0, unsafeBitCast(mutexUnlock, to: UnsafeRawPointer.self)) }
          + readWriteSlots.map { ($0, unsafeBitCast(readWriteUnlock, to: UnsafeRawPointer.self)) })
    #else
      return SlotRedirections()
    #endif
  }()
}

extension DeterministicScheduler {
  /// Whether the run under way pauses at uncontrolled locks.
  var pausesAtLocks: Bool { configuration.pausesAtUncontrolledLocks }

  /// Before the calling thread, running a step of this scheduler's run, takes the program's lock
  /// at `address`: a scheduling point, where the run pauses at such locks and the job holds none.
  /// Returns whether the acquire is a controlled one (see ``LockPauses/pauseBefore(_:isMutex:waits:)``).
  /// After the pause, or without one for a job that holds such locks, a job that would find the
  /// mutex held by a paused job of the run waits for it, paused, as for a drop-in held, unless it
  /// only tries it (not `waits`).
  func pauseBeforeUncontrolledLock(at address: UInt, isMutex: Bool, waits: Bool) -> Bool {
    guard pausesAtLocks, isDriving, isOnDriverThread, runningStep != nil, let host = HostThread.current else { return false }
    let holdsNone = host.heldLocks.isEmpty
    guard holdsNone || (isMutex && waits), isProgramLock(at: address), !holdsATaskStatusLock() else { return false }
    // The rest of `mayPause` holds: checked above.
    if holdsNone, somethingElseCouldRun, !pauseRunningJob(blockedOn: nil) { return true }
    if isMutex, waits { waitWhileAPausedJobHolds(mutexAt: address) }
    return holdsNone
  }

  /// Waits, paused, while a paused job of the run holds the mutex at `address`: a job never pauses
  /// at a scheduling point holding such a lock, but one that holds it may wait, paused, for a
  /// drop-in or a mutex another task holds. Taking the mutex then would block the run's only
  /// running thread for good; waiting on it as on a drop-in, the job is ready again once the
  /// holder lets go, and a cycle of such waits is a deadlock that names the lock and its holder.
  /// Returns when the run ended meanwhile too: the job then goes on outside the scheduler's
  /// control.
  private func waitWhileAPausedJobHolds(mutexAt address: UInt) {
    #if os(Linux) && _pointerBitWidth(_64)
      while let holder = pausedTaskHolding(mutexAt: address), let me = currentTaskID() ?? runningStep?.owner, holder != me {
        let standIn = uncontrolledLockStandIns[address] ?? ControlledLock(kind: { "NSLock or pthread_mutex_t" })
        uncontrolledLockStandIns[address] = standIn
        standIn.holder = holder
        standIn.holderRun = runSerial
        let number = lockNumbers[address].map { " #\($0)" } ?? ""
        let waitingOn = "an NSLock or pthread_mutex_t\(number) the scheduler does not control, held by task \(registry[holder].info)"
        registry[me].waitingOn = { waitingOn }
        guard pauseRunningJob(blockedOn: standIn) else { return }
      }
    #endif
  }

  /// The task of the paused job whose thread holds the mutex at `address`, as glibc records its
  /// holder, 8 bytes in.
  private func pausedTaskHolding(mutexAt address: UInt) -> TaskID? {
    #if os(Linux) && _pointerBitWidth(_64)
      guard !pausedJobs.isEmpty, let owner = UnsafeRawPointer(bitPattern: address + 8)?.load(as: Int32.self), owner > 0 else { return nil }
      return pausedJobs.first { $0.host.kernelID == owner }?.task
    #else
      return nil
    #endif
  }

  /// Makes the jobs waiting for the uncontrolled mutex at `address` ready: its holder lets go of it.
  func letGoOfUncontrolledLock(at address: UInt) {
    guard let standIn = uncontrolledLockStandIns[address], standIn.isHeldUnderControl else { return }
    letGo(of: standIn)
  }
}
