import EffectScheduler
import Synchronization

/// An atomic value, shaped like `Synchronization.Atomic`, whose every load, store and update is a
/// scheduling point under a `DeterministicScheduler`.
///
/// Outside a scheduler it is an `Atomic`. Under one, the task may be paused before each access
/// while other ready jobs run, so that a lost update between a load and a store, or an ordering
/// race between two stores, becomes a schedule to explore. It is a class, so that it can be
/// declared where an `Atomic` is, as a `let`:
///
/// ```swift
/// final class Hits: Sendable {
///   private let count = EffectAtomic(0)
///   func record() { count.wrappingAdd(1, ordering: .relaxed) }
/// }
/// ```
///
/// Every access is sequentially consistent under a scheduler, whatever ordering it asks for: the
/// scheduler runs one step at a time, so weaker orderings' reorderings are not explored.
public final class EffectAtomic<Value: AtomicRepresentable & Sendable>: Sendable {
  @usableFromInline let atomic: Atomic<Value>

  /// Creates an atomic value holding `initialValue`.
  public init(_ initialValue: consuming Value) {
    atomic = Atomic(initialValue)
  }

  /// A scheduling point before an access, under a scheduler: outside any run, one relaxed load.
  @inlinable
  func accessing() {
    if DeterministicScheduler.mayControlCallingThread { schedulingPointUnderControl() }
  }

  /// A scheduling point before an access, if a scheduler controls the calling thread.
  @usableFromInline
  func schedulingPointUnderControl() {
    guard let scheduler = DeterministicScheduler.controllingCallingThreadDuringRuns else { return }
    _ = scheduler.schedulingPoint(touching: self)
  }
}

// The standard library defines `Atomic`'s operations for each width of storage, not for any
// value: each width the drop-in serves repeats them.
extension EffectAtomic where Value.AtomicRepresentation == _Atomic64BitStorage {
  /// Reads the value.
  @inlinable
  public func load(ordering: AtomicLoadOrdering) -> Value {
    accessing()
    if ordering == .relaxed { return atomic.load(ordering: .relaxed) }
    if ordering == .acquiring { return atomic.load(ordering: .acquiring) }
    return atomic.load(ordering: .sequentiallyConsistent)
  }

  /// Replaces the value.
  @inlinable
  public func store(_ desired: consuming Value, ordering: AtomicStoreOrdering) {
    accessing()
    if ordering == .relaxed { return atomic.store(desired, ordering: .relaxed) }
    if ordering == .releasing { return atomic.store(desired, ordering: .releasing) }
    atomic.store(desired, ordering: .sequentiallyConsistent)
  }

  /// Replaces the value, and returns the one it replaced. Sequentially consistent whatever
  /// `ordering` asks, as read-modify-write operations cost the same on the common processors.
  @discardableResult
  @inlinable
  public func exchange(_ desired: consuming Value, ordering: AtomicUpdateOrdering) -> Value {
    accessing()
    return atomic.exchange(desired, ordering: .sequentiallyConsistent)
  }

  /// Replaces the value with `desired` if it is `expected`; returns whether it did, and the value
  /// it found. Sequentially consistent whatever `ordering` asks.
  @inlinable
  public func compareExchange(
    expected: consuming Value, desired: consuming Value, ordering: AtomicUpdateOrdering
  ) -> (exchanged: Bool, original: Value) {
    accessing()
    return atomic.compareExchange(expected: expected, desired: desired, ordering: .sequentiallyConsistent)
  }
}

extension EffectAtomic where Value.AtomicRepresentation == _Atomic8BitStorage {
  /// Reads the value.
  @inlinable
  public func load(ordering: AtomicLoadOrdering) -> Value {
    accessing()
    if ordering == .relaxed { return atomic.load(ordering: .relaxed) }
    if ordering == .acquiring { return atomic.load(ordering: .acquiring) }
    return atomic.load(ordering: .sequentiallyConsistent)
  }

  /// Replaces the value.
  @inlinable
  public func store(_ desired: consuming Value, ordering: AtomicStoreOrdering) {
    accessing()
    if ordering == .relaxed { return atomic.store(desired, ordering: .relaxed) }
    if ordering == .releasing { return atomic.store(desired, ordering: .releasing) }
    atomic.store(desired, ordering: .sequentiallyConsistent)
  }

  /// Replaces the value, and returns the one it replaced. Sequentially consistent whatever
  /// `ordering` asks, as read-modify-write operations cost the same on the common processors.
  @discardableResult
  @inlinable
  public func exchange(_ desired: consuming Value, ordering: AtomicUpdateOrdering) -> Value {
    accessing()
    return atomic.exchange(desired, ordering: .sequentiallyConsistent)
  }

  /// Replaces the value with `desired` if it is `expected`; returns whether it did, and the value
  /// it found. Sequentially consistent whatever `ordering` asks.
  @inlinable
  public func compareExchange(
    expected: consuming Value, desired: consuming Value, ordering: AtomicUpdateOrdering
  ) -> (exchanged: Bool, original: Value) {
    accessing()
    return atomic.compareExchange(expected: expected, desired: desired, ordering: .sequentiallyConsistent)
  }
}

extension EffectAtomic where Value == Int {
  /// Adds `operand`, wrapping around on overflow; returns the values before and after.
  @discardableResult
  @inlinable
  public func wrappingAdd(_ operand: Int, ordering: AtomicUpdateOrdering) -> (oldValue: Int, newValue: Int) {
    accessing()
    return atomic.wrappingAdd(operand, ordering: .sequentiallyConsistent)
  }

  /// Subtracts `operand`, wrapping around on overflow; returns the values before and after.
  @discardableResult
  @inlinable
  public func wrappingSubtract(_ operand: Int, ordering: AtomicUpdateOrdering) -> (oldValue: Int, newValue: Int) {
    accessing()
    return atomic.wrappingSubtract(operand, ordering: .sequentiallyConsistent)
  }
}

extension EffectAtomic where Value == Bool {
  /// Sets the value to the logical or of it and `operand`; returns the values before and after.
  @discardableResult
  @inlinable
  public func logicalOr(_ operand: Bool, ordering: AtomicUpdateOrdering) -> (oldValue: Bool, newValue: Bool) {
    accessing()
    return atomic.logicalOr(operand, ordering: .sequentiallyConsistent)
  }

  /// Sets the value to the logical and of it and `operand`; returns the values before and after.
  @discardableResult
  @inlinable
  public func logicalAnd(_ operand: Bool, ordering: AtomicUpdateOrdering) -> (oldValue: Bool, newValue: Bool) {
    accessing()
    return atomic.logicalAnd(operand, ordering: .sequentiallyConsistent)
  }
}
