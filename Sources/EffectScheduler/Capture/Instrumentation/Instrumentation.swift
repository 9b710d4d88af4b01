import InstrumentationEntryPoints

// Code built with `-Xfrontend -sanitize=thread` calls an entry point for each memory access and
// atomic operation (InstrumentationEntryPoints, a C target). While a run listens, those entry
// points hand the operations of the run's steps to the scheduler (only a listening run's: another
// run under way may be one that does not listen): each atomic operation is a
// scheduling point (DeterministicScheduler+InstrumentedAtomics.swift), each plain access is
// checked for a data race (Races/RaceDetector.swift). A process with no instrumented code never
// listens, and the entry points of code outside any run cost one relaxed load.

/// The instrumentation of the code under test, as this process has it.
package enum Instrumentation {
  /// Whether code built with the instrumentation was loaded into this process and calls this
  /// library's entry points, not those of the real thread sanitizer's runtime.
  package static var isActive: Bool {
    instrumentation_was_loaded() != 0 && instrumentation_entry_points_defined() != 0
  }

  /// Sets the entry points' handlers, and follows the concurrency runtime's happens-before marks,
  /// the first time it is read.
  private static let installed: Void = {
    instrumentation_set_handlers(atomicHandler, accessHandler)
    // Where the runtime has no such marks, the edges the scheduler sees itself remain
    // (Races/RaceDetector.swift).
    _ = instrumentation_follow_runtime_sync(syncHandler)
    OnceCalls.claimed
    AllocationCalls.claimed
  }()

  /// Whether runs listen where the process has instrumented code: the Benchmarks turn it off to
  /// time plain code in the same process as instrumented code.
  nonisolated(unsafe) package static var listens = true

  /// Begins a run's listening, where the process has instrumented code; returns whether it did.
  static func beginListening() -> Bool {
    guard listens, isActive else { return false }
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
  guard let address, let scheduler = DeterministicScheduler.controllingCallingThread, scheduler.trail.listened else { return 0 }
  scheduler.trail.instrumented = true
  let operation = InstrumentedAtomic(address: UInt(bitPattern: address), size: Int(size), kind: kind, caller: UInt(bitPattern: caller))
  switch InstrumentedAtomicPhase(rawValue: UInt32(bitPattern: phase)) {
  case InstrumentedAtomicBefore: scheduler.before(operation)
  case InstrumentedAtomicFailed: return scheduler.retries(operation, finding: found) ? 1 : 0
  case InstrumentedAtomicWrote: scheduler.wrote(operation)
  default: break
  }
  return 0
}

/// Hands a happens-before mark of the concurrency runtime to the race detection of the scheduler
/// whose step made it.
private let syncHandler: InstrumentedSyncHandler = { acquires, address in
  guard let address, let scheduler = DeterministicScheduler.controllingCallingThread, scheduler.trail.instrumented else { return }
  scheduler.noteRuntimeSync(acquires: acquires != 0, at: UInt(bitPattern: address))
}

/// Hands a plain access to the race detection of the scheduler whose step made it.
private let accessHandler: InstrumentedAccessHandler = { address, size, writes, caller in
  guard let address, let scheduler = DeterministicScheduler.controllingCallingThread, scheduler.trail.listened else { return }
  scheduler.trail.instrumented = true
  scheduler.noteAccess(at: UInt(bitPattern: address), size: size, writes: writes != 0, caller: UInt(bitPattern: caller))
}
