import EffectScheduler
import Synchronization

/// A mutex that protects a value, shaped like `Synchronization.Mutex`, whose every acquire is a
/// scheduling point under a `DeterministicScheduler`.
///
/// Outside a scheduler it is a `Synchronization.Mutex`. Under one, the task that calls
/// ``withLock(_:)`` may be paused first while other ready jobs run, and a task that finds the
/// mutex held waits, paused, until the holder's closure returns. It is a class, so that it can be
/// declared where a `Mutex` is, as a `let`, and used the same way:
///
/// ```swift
/// final class Counter: Sendable {
///   private let count = EffectMutex(0)
///   func increment() { count.withLock { $0 += 1 } }
/// }
/// ```
public final class EffectMutex<Value: ~Copyable>: @unchecked Sendable {
  @usableFromInline let mutex = Mutex<Void>(())
  @usableFromInline @exclusivity(unchecked) var value: Value
  @usableFromInline let controlled: ControlledLock

  /// Creates a mutex protecting `initialValue`. Reports under a scheduler name it by where it was
  /// made, `fileID` and `line`, the caller's by default.
  public init(_ initialValue: consuming sending Value, fileID: String = #fileID, line: Int = #line) {
    value = initialValue
    controlled = ControlledLock(kind: { "EffectMutex<\(Value.self)>" }, madeAt: fileID, line: line)
  }

  /// Runs `body` with the value, holding the mutex.
  @inlinable
  public func withLock<Result: ~Copyable, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
    let underControl = take(onlyIfAvailable: false) == .underControl
    defer { letGo(underControl: underControl) }
    return try body(&value)
  }

  /// Runs `body` with the value if the mutex is free, holding it; returns `nil` without running
  /// `body` if it is held.
  @inlinable
  public func withLockIfAvailable<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result? {
    let hold = take(onlyIfAvailable: true)
    guard hold != .none else { return nil }
    defer { letGo(underControl: hold == .underControl) }
    return try body(&value)
  }

  /// Takes the mutex: under the scheduler that controls the calling thread if there is one, the
  /// real mutex otherwise (or when the run ended while the caller waited). Keeps `withLock` to one
  /// call of its closure, and everything a run needs behind one call, so that outside a run the
  /// compiler inlines it as it does `Mutex.withLock`.
  @inlinable
  func take(onlyIfAvailable: Bool) -> MutexHold {
    if DeterministicScheduler.mayControlCallingThread, let hold = takeUnderControl(controlled, onlyIfAvailable: onlyIfAvailable) { return hold }
    if onlyIfAvailable { return mutex._unsafeTryLock() ? .real : .none }
    mutex._unsafeLock()
    return .real
  }

  /// Lets go of the mutex taken by ``take(onlyIfAvailable:)``.
  @inlinable
  func letGo(underControl: Bool) {
    if underControl { letGoUnderControl(controlled) } else { mutex._unsafeUnlock() }
  }
}

/// How the caller holds an ``EffectMutex``, if it does.
@usableFromInline
enum MutexHold {
  /// Held under the scheduler that controls the calling thread.
  case underControl
  /// The real mutex is locked.
  case real
  /// Not held: it was taken, and the caller asked only to take it if available.
  case none
}

// The mutex's steps under a scheduler, functions of its `ControlledLock` alone rather than
// methods of the generic class, so that the call its inlined `withLock` makes costs it no
// register outside a run.

/// Takes `lock` under the scheduler that controls the calling thread: how the caller holds it, or
/// `nil` when no scheduler controls the thread, or the run ended while the caller waited and it
/// goes on outside the scheduler's control.
@usableFromInline
func takeUnderControl(_ lock: ControlledLock, onlyIfAvailable: Bool) -> MutexHold? {
  guard let scheduler = DeterministicScheduler.controllingCallingThreadDuringRuns else { return nil }
  switch scheduler.acquire(lock, onlyIfAvailable: onlyIfAvailable) {
  case .acquired: return .underControl
  case .unavailable: return MutexHold.none
  case .uncontrolled: return nil
  }
}

/// Lets go of `lock`, taken under control: under the scheduler that controls the calling thread,
/// or, when the run ended meanwhile, by forgetting the hold.
@usableFromInline
func letGoUnderControl(_ lock: ControlledLock) {
  if let scheduler = DeterministicScheduler.controllingCallingThread {
    scheduler.release(lock, fileID: #fileID, line: #line)
  } else {
    lock.forget()
  }
}
