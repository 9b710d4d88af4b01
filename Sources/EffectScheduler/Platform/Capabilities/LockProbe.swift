#if os(Linux) && _pointerBitWidth(_64)
  import Glibc

  /// Probes ``RuntimeMechanism/lockHolders``: a mutex and a read–write lock this thread takes
  /// must read as held by this thread, as `LockHolders` reads them.
  enum LockProbe {
    static func probe() -> MechanismStatus {
      guard let me = ThreadCensus.ownThreadID().map({ Int32(truncatingIfNeeded: $0) }) else {
        return .failedProbe("the thread's kernel id cannot be read")
      }
      let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
      defer { mutex.deallocate() }
      pthread_mutex_init(mutex, nil)
      defer { pthread_mutex_destroy(mutex) }
      let address = UInt(bitPattern: mutex)
      guard LockHolders.ofMutex(at: address) == 0 else { return .failedProbe("a free mutex reads as held") }
      pthread_mutex_lock(mutex)
      let mutexHolder = LockHolders.ofMutex(at: address)
      pthread_mutex_unlock(mutex)
      guard mutexHolder == me else { return .failedProbe("a mutex this thread holds reads as held by \(mutexHolder)") }

      let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
      defer { lock.deallocate() }
      pthread_rwlock_init(lock, nil)
      defer { pthread_rwlock_destroy(lock) }
      let lockAddress = UInt(bitPattern: lock)
      pthread_rwlock_wrlock(lock)
      let writer = LockHolders.writer(ofReadWriteLockAt: lockAddress)
      pthread_rwlock_unlock(lock)
      guard writer == me else { return .failedProbe("a read-write lock this thread writes reads as written by \(writer)") }
      pthread_rwlock_rdlock(lock)
      let readers = LockHolders.readers(ofReadWriteLockAt: lockAddress)
      let writerWhileRead = LockHolders.writer(ofReadWriteLockAt: lockAddress)
      pthread_rwlock_unlock(lock)
      guard readers == 1, writerWhileRead == 0 else {
        return .failedProbe("a read-write lock this thread reads reads as \(readers) readers and writer \(writerWhileRead)")
      }
      return .verified
    }
  }
#endif
