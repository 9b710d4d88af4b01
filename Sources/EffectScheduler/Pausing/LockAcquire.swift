/// An acquire of a lock of the program's whose holders among a run's threads the scheduler can
/// tell: a `pthread_mutex_t` (an `NSLock` among them), whose holder glibc records; a
/// `pthread_rwlock_t` taken for reading, which only a holder for writing blocks, whom glibc
/// records; or one taken for writing, which its readers block too, whom the run's threads note
/// (``HostThread/readLocks``). A job about to make such an acquire that a paused job of its run
/// would block waits for it, paused, rather than block the run's only running thread for good
/// (see LockPauses.swift).
struct LockAcquire: Equatable {
  /// The ways of taking a lock that differ in what blocks them.
  enum Kind: Equatable {
    case mutex
    case reading
    case writing
  }

  /// The lock's address.
  let address: UInt
  /// How it is taken.
  let kind: Kind

  /// What the stand-in of the lock calls it in a report.
  var lockKind: String { kind == .mutex ? "NSLock or pthread_mutex_t" : "pthread_rwlock_t" }
  /// ``lockKind`` with its article, for a sentence.
  var aLock: String { kind == .mutex ? "an NSLock or pthread_mutex_t" : "a pthread_rwlock_t" }

  /// Whether some thread holds the lock in a way that blocks this acquire.
  var isBlocked: Bool {
    switch kind {
    case .mutex: LockHolders.ofMutex(at: address) > 0
    case .reading: LockHolders.writer(ofReadWriteLockAt: address) > 0
    case .writing: LockHolders.writer(ofReadWriteLockAt: address) > 0 || LockHolders.readers(ofReadWriteLockAt: address) > 0
    }
  }

  /// Whether the thread `host` holds the lock in a way that blocks this acquire.
  func isBlocked(by host: HostThread) -> Bool {
    let id = host.kernelID
    guard id > 0 else { return false }
    switch kind {
    case .mutex:
      return LockHolders.ofMutex(at: address) == id
    case .reading:
      return LockHolders.writer(ofReadWriteLockAt: address) == id
    case .writing:
      return LockHolders.writer(ofReadWriteLockAt: address) == id
        || (LockHolders.readers(ofReadWriteLockAt: address) > 0 && host.readLocks.contains(address))
    }
  }
}

/// Who holds a lock, as glibc records it, on 64-bit Linux; elsewhere no one, as far as it can tell.
enum LockHolders {
  /// The kernel's id of the thread that holds the mutex at `address`, 8 bytes in; 0 for none.
  static func ofMutex(at address: UInt) -> Int32 {
    #if os(Linux) && _pointerBitWidth(_64)
      UnsafeRawPointer(bitPattern: address)?.load(fromByteOffset: 8, as: Int32.self) ?? 0
    #else
      0
    #endif
  }

  /// The kernel's id of the thread that holds the read–write lock at `address` for writing
  /// (`__cur_writer`); 0 for none.
  static func writer(ofReadWriteLockAt address: UInt) -> Int32 {
    #if os(Linux) && _pointerBitWidth(_64) && arch(x86_64)
      UnsafeRawPointer(bitPattern: address)?.load(fromByteOffset: 24, as: Int32.self) ?? 0
    #elseif os(Linux) && _pointerBitWidth(_64)
      UnsafeRawPointer(bitPattern: address)?.load(fromByteOffset: 28, as: Int32.self) ?? 0
    #else
      0
    #endif
  }

  /// How many threads hold the read–write lock at `address` for reading: the count glibc keeps
  /// above the three bits of its state (`__readers`).
  static func readers(ofReadWriteLockAt address: UInt) -> UInt32 {
    #if os(Linux) && _pointerBitWidth(_64)
      (UnsafeRawPointer(bitPattern: address)?.load(as: UInt32.self) ?? 0) >> 3
    #else
      0
    #endif
  }
}
