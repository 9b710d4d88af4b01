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
  @usableFromInline let controlled = ControlledLock { "EffectMutex<\(Value.self)>" }

  /// Creates a mutex protecting `initialValue`.
  public init(_ initialValue: consuming sending Value) {
    value = initialValue
  }

  /// Runs `body` with the value, holding the mutex.
  @inlinable
  public func withLock<Result: ~Copyable, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
    if let scheduler = DeterministicScheduler.controllingCallingThread, takeUnderControl(scheduler, onlyIfAvailable: false) == true {
      defer { letGoUnderControl() }
      return try body(&value)
    }
    return try mutex.withLock { _ throws(E) -> sending Result in try body(&value) }
  }

  /// Runs `body` with the value if the mutex is free, holding it; returns `nil` without running
  /// `body` if it is held.
  @inlinable
  public func withLockIfAvailable<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result? {
    if let scheduler = DeterministicScheduler.controllingCallingThread, let taken = takeUnderControl(scheduler, onlyIfAvailable: true) {
      guard taken else { return nil }
      defer { letGoUnderControl() }
      return try body(&value)
    }
    return try mutex.withLockIfAvailable { _ throws(E) -> sending Result in try body(&value) }
  }

  /// Takes the mutex under `scheduler`: whether it did, or `nil` when the run ended meanwhile and
  /// the caller goes on outside the scheduler's control.
  @usableFromInline
  func takeUnderControl(_ scheduler: DeterministicScheduler, onlyIfAvailable: Bool) -> Bool? {
    switch scheduler.acquire(controlled, onlyIfAvailable: onlyIfAvailable) {
    case .acquired: true
    case .unavailable: false
    case .uncontrolled: nil
    }
  }

  @usableFromInline
  func letGoUnderControl() {
    if let scheduler = DeterministicScheduler.controllingCallingThread {
      scheduler.release(controlled, fileID: #fileID, line: #line)
    } else {
      controlled.forget()
    }
  }
}
