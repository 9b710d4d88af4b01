#if canImport(Glibc)
  import Glibc
#endif
import Synchronization

// Where a run asks (`SchedulerConfiguration.pausesAtUncontrolledLocks`), each acquire of a lock
// the scheduler does not control, made through the program's or Foundation's slots (see
// VisibleLocks.swift), is a scheduling point before the lock is taken: the job pauses there, as at
// a drop-in's acquire, and other ready jobs may run first. Which locks a thread holds is followed
// through the same slots and those of `pthread_mutex_unlock` and `pthread_rwlock_unlock`.
//
// A job that holds such a lock may pause, at the acquire of another or at a drop-in's scheduling
// point, only if each lock it holds is the program's (a `pthread_mutex_t`, an `NSLock` among
// them, or a `pthread_rwlock_t`), whose holders the run can tell: glibc records a mutex's holder
// and a read–write lock's holder for writing, and the run's threads note which read–write locks
// they took for reading (`LockAcquire`). A job of the run that would find such a lock held, in a
// way that blocks it, by a paused job waits for it, paused, as for a drop-in held, rather than
// take it and block the run's only running thread for good. So two tasks that take two locks in
// opposite orders can each hold one and wait for the other, a deadlock the report names with both
// locks and holders. A job holding a lock in a library's static data does not pause. A job that
// finds a lock held by a paused job waits for it, paused, holding such locks or not.
// An attempt that fails when the lock is held (`pthread_mutex_trylock`, `NSLock.try()`,
// `pthread_rwlock_trywrlock`) does not wait: it fails, as it would on real threads.
//
// A cancellation handler cannot pause: the runtime runs it holding the cancelled task's lock. One
// that would find a lock held by a paused job lends its thread's turn to that job, which goes on
// outside the scheduler's control until it lets go of the lock, then parks again; the run stops
// after the step, not judged, as where a handler waits for a drop-in held. A job that goes on after
// its pause takes the lock at once, unless a thread outside the run holds it. A lock taken through
// a followed slot and let go through another is taken for held until the run ends.
//
// Where a run does not pause at such locks, no acquire is a scheduling point, but a job may still
// pause in a lock's critical section, at a drop-in's scheduling point. A job that then finds the
// lock held waits for it, paused, as above, or in a cancellation handler lends the holder its
// turn (the slots are redirected from the first run that watches locks on, which is every
// search's first run): so a lock-order inversion between an `NSLock` and a drop-in is a deadlock
// the report names, not a hang. Such a run does not follow which locks each thread holds, which
// cost a lock-heavy program's schedules half as much again: a waiter that holds one may close a
// cycle of real mutexes.
//
// When a run ends, its paused jobs go on one at a time outside the scheduler's control
// (`OrphanedJobs`), those waiting for a lock last. A job of such a deadlock would then block its
// thread for good on a lock another job of the chain, still parked, holds; and the run's first
// thread, whose caller waits for the ending, may be one of them. So a job going on after its run
// ended skips the acquire of a lock that a job of its chain still parked holds in a way that
// blocks it: it goes on as if it took it, and its release of it is dropped. Its code runs
// unjudged, as every such job's does, and every thread of the run comes free.

/// The scheduling points before the acquires of uncontrolled locks.
enum LockPauses {
  /// How many runs that pause at uncontrolled locks are under way in the process.
  static let pausingRuns = Atomic<Int>(0)
  /// How many jobs of any run are paused in the process, and how many handlers wait for a job lent
  /// their turn: while none is, and no run pauses at such locks, a lock taken or let go through a
  /// redirected slot costs an atomic load or two more, and nothing else.
  static let pausedJobs = Atomic<Int>(0)
  static let lentTurns = Atomic<Int>(0)
  /// How many acquires jobs going on after their run ended skipped and have not let go of: while
  /// none is, a release through a redirected slot costs an atomic load more.
  static let skippedAcquires = Atomic<Int>(0)

  /// What an acquire through a followed slot does once its scheduling point, if any, is behind it.
  enum Acquire {
    /// Takes the lock, made outside the scheduler's control: no scheduling point came first.
    case uncontrolled
    /// Takes the lock, after a scheduling point (see ``pauseBefore(_:isMutex:waits:)``).
    case controlled
    /// Goes on without taking it: a job going on after its run ended, whose lock a job of its run
    /// still parked holds, which would block its thread for good.
    case skipped
  }

  /// Whether a release may concern a run: one pauses at such locks, or a job is paused somewhere,
  /// which may wait for the lock.
  private static var mayConcernARun: Bool {
    pausingRuns.load(ordering: .relaxed) > 0 || pausedJobs.load(ordering: .relaxed) > 0
  }

  /// Before the calling thread takes the program's lock at `lock`, for `kind` of acquire: pauses
  /// the running job if its scheduler asks and it may. Returns whether the acquire is a controlled
  /// one: made where the scheduler asks, holding no such lock but the program's, whose holders
  /// the run can tell, and outside a cancellation handler; or whether the calling thread, a job going on
  /// after its run ended, skips it (see ``Acquire/skipped``). `waits` unless the acquire is an
  /// attempt that fails when the lock is held.
  static func pauseBefore(_ lock: UnsafeRawPointer?, kind: LockAcquire.Kind, waits: Bool) -> Acquire {
    guard let lock else { return .uncontrolled }
    let acquire = LockAcquire(address: UInt(bitPattern: lock), kind: kind)
    // A run that does not pause at such locks has to do only with a lock a paused job holds.
    guard pausingRuns.load(ordering: .relaxed) > 0 || (waits && pausedJobs.load(ordering: .relaxed) > 0 && acquire.isBlocked) else {
      return .uncontrolled
    }
    var controlled = false
    DrivingThread.withScheduler { scheduler in
      controlled = scheduler.pauseBeforeUncontrolledLock(acquire, waits: waits)
    }
    // A job let go when its run ended, itself waiting for the lock here or going on: a job of
    // its run still parked that holds it would never let go.
    if waits, let host = HostThread.current, let chain = host.orphans, chain.parkedJobBlocks(acquire) {
      host.skippedLocks.append(acquire.address)
      skippedAcquires.add(1, ordering: .relaxed)
      return .skipped
    }
    return controlled ? .controlled : .uncontrolled
  }

  /// Whether the calling thread skipped the acquire of the lock at `lock` (``Acquire/skipped``):
  /// then its release is dropped too.
  private static func dropsRelease(of lock: UnsafeMutableRawPointer?) -> Bool {
    guard skippedAcquires.load(ordering: .relaxed) > 0, let lock, let host = HostThread.current,
      let index = host.skippedLocks.lastIndex(of: UInt(bitPattern: lock))
    else { return false }
    host.skippedLocks.remove(at: index)
    skippedAcquires.subtract(1, ordering: .relaxed)
    return true
  }

  /// Forgets the acquires the calling thread's job skipped and has not let go of: it has ended.
  static func forgetSkippedAcquires(of host: HostThread) {
    guard !host.skippedLocks.isEmpty else { return }
    skippedAcquires.subtract(host.skippedLocks.count, ordering: .relaxed)
    host.skippedLocks.removeAll()
  }

  /// After the calling thread took the program's lock at `lock`, for `kind` of acquire: under a
  /// scheduler that pauses at such locks, it holds it until it lets go; on a thread of a run, a
  /// read–write lock taken for reading is noted among its ``HostThread/readLocks``, which glibc
  /// does not record.
  static func took(_ lock: UnsafeRawPointer?, kind: LockAcquire.Kind) {
    guard let lock else { return }
    let address = UInt(bitPattern: lock)
    if kind == .reading, let host = HostThread.current { host.readLocks.append(address) }
    guard pausingRuns.load(ordering: .relaxed) > 0 else { return }
    DrivingThread.withScheduler { scheduler in
      guard scheduler.followsHeldLocks, let host = HostThread.current else { return }
      let isProgramLock = scheduler.isProgramLock(at: address)
      host.heldLocks.append((address, isProgramLock))
      if isProgramLock, scheduler.running.runningStep != nil { scheduler.lockWatch.stepThatTookAProgramLock = scheduler.step }
    }
  }

  /// Before the calling thread lets go of the lock at `lock`: the jobs of its run waiting for it
  /// may go on.
  static func released(_ lock: UnsafeRawPointer?) {
    guard mayConcernARun, let lock, let host = HostThread.current else { return }
    let address = UInt(bitPattern: lock)
    if !host.heldLocks.isEmpty, let index = host.heldLocks.lastIndex(where: { $0.address == address }) { host.heldLocks.remove(at: index) }
    DrivingThread.withScheduler { scheduler in
      if !scheduler.lockWatch.uncontrolledLockStandIns.isEmpty { scheduler.letGoOfUncontrolledLock(at: address) }
    }
  }

  /// After the calling thread let go of the lock at `lock`: if its paused job was lent to a
  /// cancellation handler until it let go of this lock, it parks again.
  static func didLetGo(_ lock: UnsafeRawPointer?) {
    guard lentTurns.load(ordering: .relaxed) > 0, let lock, let host = HostThread.current, host.goesOnUntilRelease == UInt(bitPattern: lock)
    else { return }
    host.goesOnUntilRelease = nil
    DrivingThread.withScheduler { $0.parkAfterLentRun(host) }
  }

  #if os(Linux) && _pointerBitWidth(_64)
    private typealias Unlock = @convention(c) (UnsafeMutableRawPointer?) -> Int32

    private static let realMutexUnlock: Unlock? = runtimeFunction("pthread_mutex_unlock")
    private static let realReadWriteUnlock: Unlock? = runtimeFunction("pthread_rwlock_unlock")
    private static let mutexUnlock: Unlock = { lock in
      if dropsRelease(of: lock) { return 0 }
      released(lock.map(UnsafeRawPointer.init))
      let result = realMutexUnlock!(lock)
      didLetGo(lock.map(UnsafeRawPointer.init))
      return result
    }
    private static let readWriteUnlock: Unlock = { lock in
      if dropsRelease(of: lock) { return 0 }
      if let lock, let host = HostThread.current, !host.readLocks.isEmpty {
        // A holder for writing holds it for reading too only if it took it so first: glibc
        // refuses that, so its release is of the write.
        let address = UInt(bitPattern: lock)
        if LockHolders.writer(ofReadWriteLockAt: address) != host.kernelID, let index = host.readLocks.lastIndex(of: address) {
          host.readLocks.remove(at: index)
        }
      }
      released(lock.map(UnsafeRawPointer.init))
      let result = realReadWriteUnlock!(lock)
      didLetGo(lock.map(UnsafeRawPointer.init))
      return result
    }
  #endif

  /// The `pthread_mutex_unlock` slots of Foundation and of the image holding this code, and its
  /// `pthread_rwlock_unlock` slots, those whose locks VisibleLocks.swift notes as the program's,
  /// pointed at functions that follow which locks a thread holds; claimed by the first run that
  /// pauses at uncontrolled locks.
  static let unlockRedirections: SlotRedirections = {
    #if os(Linux) && _pointerBitWidth(_64)
      guard VisibleLocks.seesLocks, realMutexUnlock != nil, realReadWriteUnlock != nil else { return SlotRedirections([]) }
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
  /// Whether the run under way pauses between two critical sections of one step, and not at every
  /// acquire (``SchedulerConfiguration/pausesBetweenCriticalSections``).
  var pausesBetweenSections: Bool { configuration.pausesBetweenCriticalSections && !configuration.pausesAtUncontrolledLocks }
  /// Whether the run follows which uncontrolled locks each of its threads holds: it pauses at them.
  var followsHeldLocks: Bool { configuration.pausesAtUncontrolledLocks || configuration.pausesBetweenCriticalSections }

  /// The paused job whose thread holds the lock of `acquire` in a way that blocks it.
  func pausedJobBlocking(_ acquire: LockAcquire) -> PausedJob? {
    guard !pausing.pausedJobs.isEmpty, acquire.isBlocked else { return nil }
    return pausing.pausedJobs.first { acquire.isBlocked(by: $0.host) }
  }

  /// Makes the jobs waiting for the uncontrolled lock at `address` ready: its holder lets go of it.
  func letGoOfUncontrolledLock(at address: UInt) {
    guard let standIn = lockWatch.uncontrolledLockStandIns[address], standIn.isHeldUnderControl else { return }
    letGo(of: standIn)
  }
}
