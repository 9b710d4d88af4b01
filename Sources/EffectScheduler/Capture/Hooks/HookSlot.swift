#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import Synchronization

/// One of the concurrency runtime's process-wide hook variables, with this library's hook put in
/// front of whatever was there, which it chains to.
///
/// Another library may later set the variable to a hook of its own without chaining, as
/// swift-concurrency-extras' `withMainSerialExecutor` does with the enqueue hook for the length of
/// a test, and put back what it found at the end. So every run, as it starts, claims the front
/// again (``claim(evenIfUnset:)``), chaining to the hook it finds there, and so does every step
/// for the enqueue hook, which the program under test may set itself; when the other library puts
/// back what it found, this library's hook goes with it, and the next claim is a look.
final class HookSlot<Hook>: @unchecked Sendable {
  // The variable holds a thin function pointer, `0` for none, which the runtime reads and writes
  // without synchronization; `previous` holds the bits of the hook this one chains to, for the
  // hook to read from any thread while a run claims the front.
  private let variable: UnsafeMutablePointer<Hook?>
  private let ours: Hook
  private let previous = Atomic<UInt>(0)
  private let claiming = Mutex(())
  /// Set on a thread while it calls the hook this one chains to: a hook that chains back to this
  /// one, as one installed after it that chains to what it found does once this one has claimed
  /// the front again, must not send the call round for ever.
  private let chainingKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// Takes over the hook variable at `address`, which holds a `Hook?`; `ours` is installed by
  /// ``claim(evenIfUnset:)``.
  init(at address: UnsafeMutableRawPointer, ours: Hook) {
    precondition(MemoryLayout<Hook?>.size == MemoryLayout<UInt>.size, "a hook is a thin function pointer")
    variable = address.assumingMemoryBound(to: Hook?.self)
    self.ours = ours
  }

  /// The hook this one chains to, if any.
  var previousHook: Hook? {
    let bits = previous.load(ordering: .acquiring)
    return bits == 0 ? nil : unsafeBitCast(bits, to: Hook.self)
  }

  /// Calls the hook this one chains to with `call`, or `original` where there is none or the
  /// calling thread is already inside a call to it (the chain has come round to this hook again).
  func chain<Result>(_ call: (Hook) -> Result, otherwise original: () -> Result) -> Result {
    guard let previous = previousHook, pthread_getspecific(chainingKey) == nil else { return original() }
    pthread_setspecific(chainingKey, UnsafeRawPointer(bitPattern: 1))
    defer { pthread_setspecific(chainingKey, nil) }
    return call(previous)
  }

  /// Puts this library's hook in front of another one found in the variable, chaining to it; with
  /// `evenIfUnset`, also where the variable is empty. A look that finds it in front already takes
  /// no lock, as every run looks.
  func claim(evenIfUnset: Bool) {
    let ours = bits(of: self.ours)
    func found() -> UInt? {
      let current = variable.pointee.map(bits(of:)) ?? 0
      return current != ours && (current != 0 || evenIfUnset) ? current : nil
    }
    guard found() != nil else { return }
    claiming.withLock { _ in
      guard let current = found() else { return }
      previous.store(current, ordering: .releasing)
      variable.pointee = self.ours
    }
  }

  private func bits(of hook: Hook) -> UInt { unsafeBitCast(hook, to: UInt.self) }
}
