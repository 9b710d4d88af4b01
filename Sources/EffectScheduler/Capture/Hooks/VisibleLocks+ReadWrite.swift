#if canImport(Glibc)
  import Glibc
#endif

// Read–write locks guard state tasks share as mutexes do: swift-log and swift-metrics keep their
// registries behind a `pthread_rwlock_t`. Every way of taking one, for reading or for writing,
// tried or with a deadline, is noted as a touch of that lock, so two steps that take the same one
// are dependent. Two readers would commute; taking them for dependent only costs schedules.

extension VisibleLocks {
  #if os(Linux) && _pointerBitWidth(_64)
    private typealias ReadWriteLock = @convention(c) (UnsafeMutablePointer<pthread_rwlock_t>?) -> Int32

    private typealias TimedReadWriteLock = @convention(c) (UnsafeMutablePointer<pthread_rwlock_t>?, UnsafePointer<timespec>?) -> Int32

    private static let realReadLock: ReadWriteLock? = runtimeFunction("pthread_rwlock_rdlock")
    private static let realWriteLock: ReadWriteLock? = runtimeFunction("pthread_rwlock_wrlock")
    private static let realTryReadLock: ReadWriteLock? = runtimeFunction("pthread_rwlock_tryrdlock")
    private static let realTryWriteLock: ReadWriteLock? = runtimeFunction("pthread_rwlock_trywrlock")
    private static let realTimedReadLock: TimedReadWriteLock? = runtimeFunction("pthread_rwlock_timedrdlock")
    private static let realTimedWriteLock: TimedReadWriteLock? = runtimeFunction("pthread_rwlock_timedwrlock")

    // The replacements, each noting the lock, then calling the real function.
    private static let readLock: ReadWriteLock = { lock in noting(lock, byTheProgram: true, forReading: true) { realReadLock!(lock) } }
    private static let writeLock: ReadWriteLock = { lock in noting(lock, byTheProgram: true) { realWriteLock!(lock) } }
    private static let tryReadLock: ReadWriteLock = { lock in noting(lock, byTheProgram: true, tries: true, forReading: true) { realTryReadLock!(lock) } }
    private static let tryWriteLock: ReadWriteLock = { lock in noting(lock, byTheProgram: true, tries: true) { realTryWriteLock!(lock) } }
    private static let timedReadLock: TimedReadWriteLock = { lock, deadline in
      noting(lock, byTheProgram: true, forReading: true) { realTimedReadLock!(lock, deadline) }
    }
    private static let timedWriteLock: TimedReadWriteLock = { lock, deadline in
      noting(lock, byTheProgram: true) { realTimedWriteLock!(lock, deadline) }
    }

    /// The slots through which the image holding this code (the program's) takes a
    /// `pthread_rwlock_t`, each with the function that notes the lock; none where a real function
    /// is missing. Foundation and the concurrency library take none.
    static func readWriteLockRedirections() -> [(ImportedFunctionSlot, UnsafeRawPointer)] {
      guard realReadLock != nil, realWriteLock != nil, realTryReadLock != nil, realTryWriteLock != nil, realTimedReadLock != nil,
        realTimedWriteLock != nil
      else { return [] }
      // A first call through each of this image's slots binds it, if the dynamic linker binds lazily.
      var lock = pthread_rwlock_t()
      pthread_rwlock_init(&lock, nil)
      var now = timespec()
      clock_gettime(CLOCK_REALTIME, &now)
      for take in [{ pthread_rwlock_rdlock(&lock) }, { pthread_rwlock_wrlock(&lock) }, { pthread_rwlock_tryrdlock(&lock) },
        { pthread_rwlock_trywrlock(&lock) }, { pthread_rwlock_timedrdlock(&lock, &now) }, { pthread_rwlock_timedwrlock(&lock, &now) }]
      where take() == 0 {
        pthread_rwlock_unlock(&lock)
      }
      pthread_rwlock_destroy(&lock)
      let functions: [(name: String, replacement: UnsafeRawPointer)] = [
        ("pthread_rwlock_rdlock", unsafeBitCast(readLock, to: UnsafeRawPointer.self)),
        ("pthread_rwlock_wrlock", unsafeBitCast(writeLock, to: UnsafeRawPointer.self)),
        ("pthread_rwlock_tryrdlock", unsafeBitCast(tryReadLock, to: UnsafeRawPointer.self)),
        ("pthread_rwlock_trywrlock", unsafeBitCast(tryWriteLock, to: UnsafeRawPointer.self)),
        ("pthread_rwlock_timedrdlock", unsafeBitCast(timedReadLock, to: UnsafeRawPointer.self)),
        ("pthread_rwlock_timedwrlock", unsafeBitCast(timedWriteLock, to: UnsafeRawPointer.self)),
      ]
      let thisImage = unsafeBitCast(readLock, to: UnsafeRawPointer.self)
      return functions.flatMap { function in
        Set(ImportedFunctionSlot.slots(of: function.name, inLibraryContaining: thisImage)).map { ($0, function.replacement) }
      }
    }
  #endif
}
