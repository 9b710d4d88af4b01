#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// Reads of `ContinuousClock.now` and `SuspendingClock.now` by the code of a run answer the run's
// virtual time, so that code measuring time around a sleep (a debounce, a throttle, a timeout, a
// rate limiter) sees the time its sleeps took, unchanged. Both clocks read the time through the
// runtime's `swift_get_time`, which on Linux calls `clock_gettime` through the concurrency
// library's own jump slot: that slot, and only it, is pointed at a reader that answers the run's
// virtual time on a driver thread while it drives and passes every other call on to the C library.
// So `Date()`, Dispatch and every other library keep real time, code outside any scheduler is
// untouched, and the scheduler's own readings go to the C library directly (``RealTime``).
// Elsewhere the reads keep real time, and a failure that may come of it says so.

/// Whether reads of the standard clocks by a run's code answer its virtual time on this platform.
enum VirtualClockReads {
  /// The concurrency library's slot for `clock_gettime`, pointed at the reader the first time it
  /// is read.
  static let redirections: SlotRedirections = {
    #if os(Linux) && _pointerBitWidth(_64)
      let slots = ImportedFunctionSlot.slots(of: "clock_gettime", inLibraryDefining: "swift_get_time")
      // A first read binds the slot, if the dynamic linker binds lazily.
      _ = ContinuousClock.now
      return SlotRedirections(slots.map { ($0, unsafeBitCast(readClock, to: UnsafeRawPointer.self)) })
    #else
      return SlotRedirections()
    #endif
  }()

  #if os(Linux) && _pointerBitWidth(_64)
    /// The concurrency library's `clock_gettime`: the virtual time of the run the calling thread
    /// drives, for the two clocks Swift's clocks read, and the C library's answer otherwise.
    private static let readClock: @convention(c) (clockid_t, UnsafeMutablePointer<timespec>?) -> Int32 = { clock, time in
      guard let time else { return -1 }
      if RuntimeHooks.runsUnderWay.load(ordering: .relaxed) > 0, let scheduler = DrivingThread.scheduler,
        let reading = scheduler.virtualReading(of: clock)
      {
        time.pointee = reading
        return 0
      }
      return clock_gettime(clock, time)
    }
  #endif
}

/// Whether reads of `ContinuousClock.now` and `SuspendingClock.now` by a run's code answer its
/// virtual time on this platform (64-bit Linux); elsewhere they keep real time.
package var clockReadsAreVirtual: Bool { !VirtualClockReads.redirections.isEmpty }

/// The real time, as the scheduler itself reads it, past the redirection of clock reads.
enum RealTime {
  /// The continuous clock's real time.
  static var now: ContinuousClock.Instant {
    #if os(Linux)
      ContinuousClock().systemEpoch + reading(CLOCK_BOOTTIME)
    #else
      ContinuousClock.now
    #endif
  }

  #if os(Linux)
    /// The real time of `clock`, as a duration since its epoch.
    static func reading(_ clock: clockid_t) -> Duration {
      var time = timespec()
      clock_gettime(clock, &time)
      return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
  #endif
}

#if os(Linux)
  extension DeterministicScheduler {
    /// The virtual time of the run under way on `clock`: the clock's real time when the run began
    /// plus the virtual time, for the two clocks behind `ContinuousClock` and `SuspendingClock`.
    func virtualReading(of clock: clockid_t) -> timespec? {
      let start: Duration
      switch clock {
      case CLOCK_BOOTTIME: start = ContinuousClock().systemEpoch.duration(to: time.runStartedAt)
      case CLOCK_MONOTONIC: start = time.suspendingRunStart
      default: return nil
      }
      let (seconds, attoseconds) = (start + timeSeenByRunningCode()).components
      return timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    }
  }
#endif
