import InstrumentationEntryPoints

// Code built with `-Xfrontend -sanitize=thread` calls an entry point for each memory access and
// atomic operation (InstrumentationEntryPoints, a C target). While a run listens, those entry
// points hand the operations of the run's steps to the scheduler: each atomic operation is a
// scheduling point (DeterministicScheduler+InstrumentedAtomics.swift), each plain access is
// recorded with its step (InstrumentedAccesses.swift). A process with no instrumented code never
// listens, and the entry points of code outside any run cost one relaxed load.

/// The instrumentation of the code under test, as this process has it.
package enum Instrumentation {
  /// Whether code built with the instrumentation was loaded into this process and calls this
  /// library's entry points, not those of the real thread sanitizer's runtime.
  package static var isActive: Bool {
    instrumentation_was_loaded() != 0 && instrumentation_entry_points_defined() != 0
  }

  /// Sets the entry points' handlers, the first time it is read.
  private static let installed: Void = instrumentation_set_handlers(atomicHandler, accessHandler)

  /// Begins a run's listening, where the process has instrumented code; returns whether it did.
  static func beginListening() -> Bool {
    guard isActive else { return false }
    installed
    instrumentation_add_listening_runs(1)
    return true
  }

  /// Ends a run's listening that ``beginListening()`` began.
  static func endListening() {
    instrumentation_add_listening_runs(-1)
  }

  /// Whether the atomic word at `address` is this library's own, which its inlinable code reads
  /// inside the program's (whether a run is under way), and no scheduling point is for.
  static func isLibraryWord(_ address: UInt) -> Bool {
    address == runsUnderWayAddress
  }

  private static let runsUnderWayAddress = withUnsafePointer(to: RuntimeHooks.runsUnderWay) { UInt(bitPattern: $0) }
}

/// Hands an atomic operation to the scheduler whose step made it (see ``InstrumentedAtomicPhase``).
private let atomicHandler: InstrumentedAtomicHandler = { phase, address, size, kind, _, found, caller in
  guard let address, let scheduler = DeterministicScheduler.controllingCallingThread else { return 0 }
  let operation = InstrumentedAtomic(address: UInt(bitPattern: address), size: Int(size), kind: kind, caller: UInt(bitPattern: caller))
  switch InstrumentedAtomicPhase(rawValue: UInt32(bitPattern: phase)) {
  case InstrumentedAtomicBefore: scheduler.before(operation)
  case InstrumentedAtomicFailed: return scheduler.retries(operation, finding: found) ? 1 : 0
  case InstrumentedAtomicWrote: scheduler.wrote(operation)
  default: break
  }
  return 0
}

/// Records a plain access with the step that made it.
private let accessHandler: InstrumentedAccessHandler = { address, size, writes, caller in
  guard let address, let scheduler = DeterministicScheduler.controllingCallingThread else { return }
  scheduler.record(
    InstrumentedAccess(address: UInt(bitPattern: address), size: size, writes: writes != 0, caller: UInt(bitPattern: caller), step: scheduler.step))
}
