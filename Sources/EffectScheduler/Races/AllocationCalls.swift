import InstrumentationEntryPoints

// Memory one task freed and another task allocated again is no data race between them: the
// allocator orders them, with locks of its own the run does not see. So on 64-bit Linux the
// slots through which the Swift runtime and its concurrency library allocate (objects, buffers,
// tasks, their slabs) are pointed at stand-ins (`instrumentation_following_allocator`) that, in
// a listening run, tell the scheduler whose step allocated of each block: the race detection
// forgets what it recorded of that memory.

/// Follows the Swift runtime's allocations in listening runs.
enum AllocationCalls {
  /// The functions followed.
  private static let functions = ["malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc"]

  /// Points the slots at the stand-ins once, the first time it is read.
  static let claimed: Void = {
    instrumentation_set_allocation_handler(allocationHandler)
    #if os(Linux) && _pointerBitWidth(_64)
      // The runtime's allocator, and the concurrency library's (tasks and their slabs).
      let libraries = ["swift_slowAlloc", "swift_task_alloc"]
      var redirections: [(ImportedFunctionSlot, UnsafeRawPointer)] = []
      for library in libraries {
        for function in functions {
          guard let standIn = instrumentation_following_allocator(function) else { continue }
          for slot in ImportedFunctionSlot.slots(of: function, inLibraryDefining: library) { redirections.append((slot, standIn)) }
        }
      }
      SlotRedirections(redirections).claim()
    #endif
  }()
}

/// Hands a block the allocator handed out to the race detection of the scheduler whose step
/// allocated it.
private let allocationHandler: InstrumentedAllocationHandler = { start, size in
  guard let start, let scheduler = DeterministicScheduler.controllingCallingThread, scheduler.trail.instrumented else { return }
  scheduler.noteAllocation(at: UInt(bitPattern: start), size: size)
}
