import InstrumentationEntryPoints
#if canImport(Glibc)
  import Glibc
#endif

// Tasks share state outside actors behind locks: the concurrency runtime's own (a stream's
// buffer, which producers fill and a consumer drains whether or not it waits; a task group's
// results), and the program's (`NSLock`, a `pthread_mutex_t` in a class, as swift-async-algorithms
// guards its channels' state on Linux). Two steps that take the same lock may not commute, though
// no job shows it: two producers yielding into a stream that keeps only the newest element decide
// which one the consumer gets. So where a search asks (``StrategyReference/watchesHiddenAccesses``),
// the `pthread_mutex_lock` slots (and those of `_trylock` and `_timedlock`, which `NSLock.try()`
// and `lock(before:)` call) of the concurrency library, of the image the program is linked into
// (this library's own, as SwiftPM links a test or an executable) and of Foundation are pointed, on
// Linux, at functions that note each heap lock a run's code takes or tries on its driver thread,
// and take it. Locks on the stack, a task's own status lock, which the runtime takes as
// tasks start, suspend and switch, and the libraries' own static locks, which guard their lazily
// made globals and are taken the first time on whichever thread comes first, belong to no state
// the program shares and are not noted: each lock is numbered in the order a run first takes it,
// and one taken only in some runs would number the others differently from run to run. The
// program's `pthread_rwlock_t` slots are pointed the same way (VisibleLocks+ReadWrite.swift).
// `Synchronization.Mutex` and atomics take no such lock, and stay unseen.

extension DeterministicScheduler {
  /// Notes that the running step took the lock at `address`; `byTheProgram` when it was taken
  /// through Foundation's slot or the program's own, not the concurrency library's.
  /// `controlled` when the acquire was a scheduling point (``SchedulerConfiguration/pausesAtUncontrolledLocks``).
  func noteLock(at address: UInt, byTheProgram: Bool, controlled: Bool) {
    if isStatusOrStackLock(address) { return }
    // A library's static lock guards its own lazily made globals.
    if noteTouch(at: address, sharedIfNew: { !VisibleLocks.isStaticLockOfALibrary(address) }), byTheProgram, !controlled {
      lockWatch.tookUncontrolledLocks = true
    }
  }

  /// Whether the lock at `address` is a task's status lock or on the driver thread's stack: the
  /// runtime's or the scheduler's own, which no note or pause is for.
  private func isStatusOrStackLock(_ address: UInt) -> Bool {
    // Most locks a run takes are task status locks, which the runtime takes as tasks start,
    // suspend and switch: the running task's is told apart first, then the registered tasks' are
    // looked up, every time, as tasks register while the run goes on.
    if let task = taskReader.currentTaskAddress(), VisibleLocks.isStatusLock(address, ofTaskAt: UInt(bitPattern: task)) { return true }
    return tasks.registry.anyTask(holding: address, at: VisibleLocks.statusLockOffsets) || driverStack.contains(address)
  }

  /// Whether the lock at `address` is one a note of ``noteLock(at:byTheProgram:controlled:)``
  /// counts: no task's status lock, none on the driver thread's stack, and no library's static lock.
  func isProgramLock(at address: UInt) -> Bool {
    if let known = lockWatch.lockNumbers[address] { return known >= 0 }
    return !isStatusOrStackLock(address) && !VisibleLocks.isStaticLockOfALibrary(address)
  }

  /// Notes that the running step touched the lock or object at `address`, numbered in the order
  /// the run first touched it; one that `sharedIfNew` says, when first seen, guards nothing tasks
  /// share is never noted. Returns whether it noted the touch.
  @discardableResult
  func noteTouch(at address: UInt, sharedIfNew: () -> Bool = { true }) -> Bool {
    instrumentation_library_enter()
    defer { instrumentation_library_exit() }
    let number: Int
    if let known = lockWatch.lockNumbers[address] {
      number = known
    } else {
      number = sharedIfNew() ? lockWatch.nextLockNumber : -1
      if number >= 0 { lockWatch.nextLockNumber += 1 }
      lockWatch.lockNumbers[address] = number
    }
    guard number >= 0 else { return false }
    if trail.instrumented, running.runningStep != nil {
      enterRaceStep()
      races.touch(address)
    }
    if lockWatch.lockTouches.last != LockTouch(step: step, lock: number) { lockWatch.lockTouches.append(LockTouch(step: step, lock: number)) }
    return true
  }
}

/// Notes the locks a watching run's steps take.
enum VisibleLocks {
  /// Whether locks can be noted and paused at in this process: the slots are redirected, a task's
  /// status lock is told apart and a lock's holder is read, each as its probe verified (see
  /// ``RuntimeCapabilities``). Otherwise no slot is redirected, as on platforms without them.
  static var seesLocks: Bool { RuntimeCapabilities.current.seesLocks }

  /// Where Swift 6.3 keeps a task's status lock on 64-bit Linux, in bytes from the task's start.
  static let statusLockOffset: UInt = 168

  /// Whether `address` is the status lock of the task at `task` (see ``statusLockOffset``).
  static func isStatusLock(_ address: UInt, ofTaskAt task: UInt) -> Bool {
    address >= task && statusLockOffsets.contains(address - task)
  }

  /// Where in a task its status lock lies, in bytes from the task's start; nowhere where the
  /// offset is unknown.
  static let statusLockOffsets: Range<UInt> = {
    #if os(Linux) && _pointerBitWidth(_64)
      statusLockOffset..<(statusLockOffset + UInt(MemoryLayout<pthread_mutex_t>.size))
    #else
      0..<0
    #endif
  }()

  /// Whether `address` lies in the static data of a library other than the image this code is
  /// linked into, which is the program's.
  static func isStaticLockOfALibrary(_ address: UInt) -> Bool {
    #if os(Linux) && _pointerBitWidth(_64)
      guard let address = UnsafeRawPointer(bitPattern: address), let base = loadedImageBase(containing: address) else { return false }
      return base != programImageBase
    #else
      return false
    #endif
  }

  /// The `pthread_mutex_lock`, `pthread_mutex_trylock` and `pthread_mutex_timedlock` slots,
  /// pointed at the noting functions the first time it is read, which a run that watches does.
  /// A try that fails reads the lock as much as one that succeeds, so every attempt is noted:
  /// `NSLock.try()` and `lock(before:)` take the lock those ways. And the program's read–write
  /// lock slots (see ``readWriteLockRedirections()``).
  static let redirections: SlotRedirections = {
    #if os(Linux) && _pointerBitWidth(_64)
      guard seesLocks, realLock != nil, realTryLock != nil, realTimedLock != nil else { return SlotRedirections([]) }
      // A first call through each of this image's slots binds it, if the dynamic linker binds lazily.
      var mutex = pthread_mutex_t()
      pthread_mutex_init(&mutex, nil)
      pthread_mutex_lock(&mutex)
      pthread_mutex_unlock(&mutex)
      if pthread_mutex_trylock(&mutex) == 0 { pthread_mutex_unlock(&mutex) }
      var now = timespec()
      clock_gettime(CLOCK_REALTIME, &now)
      if pthread_mutex_timedlock(&mutex, &now) == 0 { pthread_mutex_unlock(&mutex) }
      pthread_mutex_destroy(&mutex)
      // The concurrency library, Foundation (`NSLock`), and the image holding this code. The
      // runtime's own locks are told from the program's, whose critical sections no step boundary
      // splits: see `LockWatch.tookUncontrolledLocks`.
      let thisImage = unsafeBitCast(lock, to: UnsafeRawPointer.self)
      let functions: [(name: String, runtime: UnsafeRawPointer, program: UnsafeRawPointer)] = [
        ("pthread_mutex_lock", thisImage, unsafeBitCast(programLock, to: UnsafeRawPointer.self)),
        ("pthread_mutex_trylock", unsafeBitCast(tryLock, to: UnsafeRawPointer.self), unsafeBitCast(programTryLock, to: UnsafeRawPointer.self)),
        ("pthread_mutex_timedlock", unsafeBitCast(timedLock, to: UnsafeRawPointer.self), unsafeBitCast(programTimedLock, to: UnsafeRawPointer.self)),
      ]
      var redirections: [(ImportedFunctionSlot, UnsafeRawPointer)] = []
      for function in functions {
        let runtime = runtimeSlots(of: function.name)
        redirections += runtime.map { ($0, function.runtime) } + programSlots(of: function.name, besides: runtime).map { ($0, function.program) }
      }
      return SlotRedirections(redirections + readWriteLockRedirections())
    #else
      return SlotRedirections()
    #endif
  }()

  #if os(Linux) && _pointerBitWidth(_64)
    /// The concurrency library's slots for `function`.
    static func runtimeSlots(of function: String) -> Set<ImportedFunctionSlot> {
      Set(ImportedFunctionSlot.slots(of: function, inLibraryDefining: "swift_get_time"))
    }

    /// Foundation's slots for `function` and those of the image holding this code (the
    /// program's), but for `runtime`, the concurrency library's: the locks taken through them are
    /// the program's.
    static func programSlots(of function: String, besides runtime: Set<ImportedFunctionSlot>) -> Set<ImportedFunctionSlot> {
      var program = ImportedFunctionSlot.slots(of: function, inLibraryDefining: "$s10Foundation6NSLockC4lockyyF")
      program += ImportedFunctionSlot.slots(of: function, inLibraryContaining: unsafeBitCast(lock, to: UnsafeRawPointer.self))
      return Set(program).subtracting(runtime)
    }

    private typealias Lock = @convention(c) (UnsafeMutablePointer<pthread_mutex_t>?) -> Int32

    private typealias TimedLock = @convention(c) (UnsafeMutablePointer<pthread_mutex_t>?, UnsafePointer<timespec>?) -> Int32

    private static let realLock: Lock? = runtimeFunction("pthread_mutex_lock")
    private static let realTryLock: Lock? = runtimeFunction("pthread_mutex_trylock")
    private static let realTimedLock: TimedLock? = runtimeFunction("pthread_mutex_timedlock")
    private static let getAttributes: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32)? =
      runtimeFunction("pthread_getattr_np")

    /// The image this code is linked into, which holds the program too.
    nonisolated(unsafe) private static let programImageBase = loadedImageBase(containing: unsafeBitCast(lock, to: UnsafeRawPointer.self))

    /// The calling thread's stack, as `pthread_getattr_np` tells it, read once a thread: that
    /// call also asks the kernel for the thread's CPU affinity, a system call that every
    /// `explore` call of a watching search made on its driver thread, which the pool keeps.
    static func stackOfCallingThread() -> Range<UInt> {
      if let kept = pthread_getspecific(stackKey) { return kept.load(as: Range<UInt>.self) }
      let stack = readStackOfCallingThread()
      let kept = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<Range<UInt>>.size, alignment: MemoryLayout<Range<UInt>>.alignment)
      kept.storeBytes(of: stack, as: Range<UInt>.self)
      pthread_setspecific(stackKey, kept)
      return stack
    }

    /// Where each thread keeps its stack's range, freed when the thread ends.
    private static let stackKey: pthread_key_t = {
      var key = pthread_key_t()
      pthread_key_create(&key) { $0?.deallocate() }
      return key
    }()

    private static func readStackOfCallingThread() -> Range<UInt> {
      var attributes = pthread_attr_t()
      guard let getAttributes, getAttributes(pthread_self(), &attributes) == 0 else { return 0..<0 }
      defer { pthread_attr_destroy(&attributes) }
      var low: UnsafeMutableRawPointer?
      var size = 0
      guard pthread_attr_getstack(&attributes, &low, &size) == 0, let low else { return 0..<0 }
      return UInt(bitPattern: low)..<(UInt(bitPattern: low) + UInt(size))
    }

    // The replacements, one for the concurrency library's slots and one for the program's, of each
    // function: each notes the lock, then calls the real function.
    private static let lock: Lock = { mutex in noting(mutex, byTheProgram: false) { realLock!(mutex) } }
    private static let programLock: Lock = { mutex in noting(mutex, byTheProgram: true) { realLock!(mutex) } }
    private static let tryLock: Lock = { mutex in noting(mutex, byTheProgram: false) { realTryLock!(mutex) } }
    private static let programTryLock: Lock = { mutex in noting(mutex, byTheProgram: true, tries: true) { realTryLock!(mutex) } }
    private static let timedLock: TimedLock = { mutex, deadline in noting(mutex, byTheProgram: false) { realTimedLock!(mutex, deadline) } }
    private static let programTimedLock: TimedLock = { mutex, deadline in noting(mutex, byTheProgram: true) { realTimedLock!(mutex, deadline) } }

    /// Notes the lock at `lock`, a `pthread_mutex_t` or a `pthread_rwlock_t`, then takes it as
    /// `take` does; `tries` for an attempt that fails rather than wait when the lock is held.
    /// Where the run pauses at such locks (``SchedulerConfiguration/pausesAtUncontrolledLocks``),
    /// a lock of the program's is first a scheduling point (LockPauses.swift). A job going on
    /// after its run ended skips the acquire of a mutex a job of its run still parked holds.
    static func noting<Lock>(
      _ lock: UnsafeMutablePointer<Lock>?, byTheProgram: Bool, tries: Bool = false, forReading: Bool = false, _ take: () -> Int32
    ) -> Int32 {
      let address = lock.map(UnsafeRawPointer.init)
      let kind: LockAcquire.Kind = Lock.self == pthread_mutex_t.self ? .mutex : forReading ? .reading : .writing
      let acquire = byTheProgram ? LockPauses.pauseBefore(address, kind: kind, waits: !tries) : .uncontrolled
      note(address, byTheProgram: byTheProgram, controlled: acquire == .controlled)
      if acquire == .skipped { return 0 }
      let result = take()
      if byTheProgram, result == 0 { LockPauses.took(address, kind: kind) }
      return result
    }

    /// Off the threads that drive a run, a lock taken through a redirected slot costs one read of
    /// a thread-local value more.
    private static func note(_ lock: UnsafeRawPointer?, byTheProgram: Bool, controlled: Bool) {
      guard let lock else { return }
      let address = UInt(bitPattern: lock)
      DrivingThread.withScheduler { scheduler in
        if scheduler.lockWatch.watchedLocks, scheduler.isDriving { scheduler.noteLock(at: address, byTheProgram: byTheProgram, controlled: controlled) }
      }
    }
  #endif
}
