#if canImport(Glibc)
  import Glibc

  /// A lock around a `pthread_rwlock_t`, as swift-log and swift-metrics guard their registries.
  final class PlatformReadWriteLock: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
    init() { pthread_rwlock_init(lock, nil) }
    deinit {
      pthread_rwlock_destroy(lock)
      lock.deallocate()
    }
    func withReaderLock<Result>(_ body: () -> Result) -> Result {
      pthread_rwlock_rdlock(lock)
      defer { pthread_rwlock_unlock(lock) }
      return body()
    }
    /// Takes the lock for writing, or by trying until a try succeeds.
    func withWriterLock<Result>(trying: Bool = false, _ body: () -> Result) -> Result {
      if trying { while pthread_rwlock_trywrlock(lock) != 0 {} } else { pthread_rwlock_wrlock(lock) }
      defer { pthread_rwlock_unlock(lock) }
      return body()
    }
  }
#endif
