#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import EffectScheduler

/// A lock for classes, shaped like Foundation's `NSLock`, whose every acquire is a scheduling
/// point under a `DeterministicScheduler`.
///
/// Outside a scheduler it is a plain `pthread_mutex_t`. Under one, the task that calls ``lock()``
/// may be paused first while other ready jobs run, and a task that finds the lock held waits,
/// paused in its synchronous code, until the holder unlocks it: races between critical sections
/// that never suspend become schedules to explore, and a cycle of tasks waiting for each other's
/// locks is reported as a deadlock that names the locks and their holders.
///
/// ```swift
/// final class Inbox: @unchecked Sendable {
///   private let lock = EffectLock()
///   private var messages: [String] = []
///   func post(_ message: String) { lock.withLock { messages.append(message) } }
/// }
/// ```
public final class EffectLock: @unchecked Sendable {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @usableFromInline let controlled: ControlledLock

  /// Creates an unlocked lock. Reports under a scheduler name it by where it was made, `fileID`
  /// and `line`, the caller's by default.
  public init(fileID: String = #fileID, line: Int = #line) {
    controlled = ControlledLock(kind: { "EffectLock" }, madeAt: fileID, line: line)
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Takes the lock, waiting while another thread (or, under a scheduler, task) holds it.
  @inlinable
  public func lock() {
    if DeterministicScheduler.mayControlCallingThread, takeUnderControl() { return }
    pthread_mutex_lock(mutex)
  }

  /// Takes the lock under the scheduler that controls the calling thread; `false` when none does,
  /// or the run ended meanwhile.
  @usableFromInline
  func takeUnderControl() -> Bool {
    guard let scheduler = DeterministicScheduler.controllingCallingThreadDuringRuns else { return false }
    return scheduler.acquire(controlled, onlyIfAvailable: false) == .acquired
  }

  /// Takes the lock if no one holds it; returns whether it did.
  public func `try`() -> Bool {
    if let scheduler = DeterministicScheduler.controllingCallingThread {
      switch scheduler.acquire(controlled, onlyIfAvailable: true) {
      case .acquired: return true
      case .unavailable: return false
      case .uncontrolled: break
      }
    }
    return pthread_mutex_trylock(mutex) == 0
  }

  /// Lets go of the lock, which the caller must hold. Under a scheduler, unlocking a lock the
  /// calling task does not hold ends the run with a report that names the lock, the tasks and
  /// this call's location.
  @inlinable
  public func unlock(fileID: String = #fileID, line: Int = #line) {
    if DeterministicScheduler.mayControlCallingThread, letGoUnderControl(fileID: fileID, line: line) { return }
    pthread_mutex_unlock(mutex)
    forgetHoldUnderControl()
  }

  /// Lets go of the lock under the scheduler that controls the calling thread; `false` when none
  /// does.
  @usableFromInline
  func letGoUnderControl(fileID: String, line: Int) -> Bool {
    guard let scheduler = DeterministicScheduler.controllingCallingThreadDuringRuns else { return false }
    scheduler.release(controlled, fileID: fileID, line: line)
    return true
  }

  /// A job of a run that ended goes on outside the scheduler's control, and lets go of what it
  /// took under control, which took no `pthread_mutex_t` (unlocking a free one is harmless).
  @inlinable
  func forgetHoldUnderControl() {
    if controlled.isHeldUnderControl { controlled.forget() }
  }

  /// Runs `body` holding the lock.
  @inlinable
  public func withLock<Result, E: Error>(fileID: String = #fileID, line: Int = #line, _ body: () throws(E) -> Result) throws(E) -> Result {
    lock()
    defer { unlock(fileID: fileID, line: line) }
    return try body()
  }
}
