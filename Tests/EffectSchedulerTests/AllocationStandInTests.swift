@testable import EffectScheduler
import Foundation
import InstrumentationEntryPoints
import Testing

/// The allocator's stand-ins note a block and tell the allocation handler later, on the same
/// thread: the Swift runtime calls them holding locks of its own, under which the handler's code
/// could wait for good (see FirstListeningRunTests for the hang this was).
@Suite("Instrumented code: the allocator's stand-ins")
struct AllocationStandInTests {
  #if os(Linux) && _pointerBitWidth(_64)
    @Test("note a block a listening run's allocator hands out, and tell of it only when asked")
    func notedThenTold() throws {
      _ = AllocationCalls.claimed
      typealias Malloc = @convention(c) (Int) -> UnsafeMutableRawPointer?
      let standIn = unsafeBitCast(try #require(instrumentation_following_allocator("malloc")), to: Malloc.self)
      instrumentation_add_listening_runs(1)
      defer { instrumentation_add_listening_runs(-1) }
      instrumentation_discard_pending_allocations()
      // The runtime's own allocations on this thread, through the same stand-ins, are noted too.
      let before = instrumentation_pending_allocation_count()
      let block = standIn(48)
      let after = instrumentation_pending_allocation_count()
      // The whole block is noted, as its owner may use all of it: what was recorded of those
      // bytes before is another block's (an array asked 48 bytes for and used 56, where another
      // task had written: a data race reported that was none). Read before anything else
      // allocates on this thread.
      var start: UnsafeRawPointer?
      var size = 0
      let noted = instrumentation_last_pending_allocation(&start, &size)
      defer { free(block) }
      #expect(block != nil)
      #expect(after > before)
      #expect(noted == 1)
      #expect(start == UnsafeRawPointer(block))
      // glibc hands out 56 usable bytes for 48 asked for.
      #expect(size > 48)
      // No scheduler controls this thread, so the handler, told now, does nothing with it.
      instrumentation_tell_pending_allocations()
      #expect(instrumentation_pending_allocation_count() == 0)
    }
  #endif
}
