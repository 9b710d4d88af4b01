/// A clock that tells a scheduler's virtual time under a ``DeterministicScheduler`` and the
/// continuous clock's time everywhere else.
///
/// `Task.sleep` and `ContinuousClock().sleep` wait on the virtual clock under a scheduler, and on
/// 64-bit Linux so do reads of `ContinuousClock.now` and `SuspendingClock.now` by the run's code.
/// Elsewhere those reads give real time, and code that reads the time, such as a rate limiter or
/// a cache with an expiry, takes a `SchedulerClock` to see the virtual time on every platform; in
/// production it costs one task-local read more than `ContinuousClock`.
///
/// ```swift
/// struct Cache {
///   var clock = SchedulerClock()
///   func isFresh(_ entry: Entry) -> Bool { entry.storedAt.duration(to: clock.now) < .seconds(60) }
/// }
/// ```
public struct SchedulerClock: Clock {
  /// The continuous clock's instants, so values mix freely with `ContinuousClock`'s.
  public typealias Instant = ContinuousClock.Instant

  /// Creates the clock.
  public init() {}

  /// The current instant: under a scheduler, the run's start plus its virtual time.
  public var now: Instant {
    guard let scheduler = Self.scheduler else { return .now }
    return scheduler.time.runStartedAt + scheduler.timeSeenByRunningCode()
  }

  /// The scheduler running the calling code: the task-local one, or for a detached task, which
  /// does not inherit it, the one driving this thread.
  private static var scheduler: DeterministicScheduler? {
    guard let scheduler = DeterministicScheduler.current ?? DrivingThread.scheduler, scheduler.isOnDriverThread else {
      return nil
    }
    return scheduler
  }

  /// The continuous clock's resolution.
  public var minimumResolution: Duration { ContinuousClock().minimumResolution }

  /// Sleeps until `deadline`; under a scheduler, on its virtual clock, to the exact duration.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    guard let scheduler = Self.scheduler else {
      return try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
    }
    let delay = max(.zero, scheduler.virtualInstant.duration(to: deadline))
    scheduler.time.exactDelayOfNextSleep = delay
    defer { scheduler.time.exactDelayOfNextSleep = nil }
    try await Task.sleep(for: delay)
  }
}

extension DeterministicScheduler {
  /// The virtual time as an instant of the continuous clock, counted from the start of the run.
  var virtualInstant: ContinuousClock.Instant { time.runStartedAt + time.virtualNow }

  /// The virtual time of the run under way, counted from its start: zero until the first sleep
  /// ends. Read it from code the scheduler runs; a read is a read of the clock, as
  /// ``SchedulerConfiguration/earlyTimerFirings`` counts them.
  public var virtualTime: Duration {
    isOnDriverThread && isDriving ? timeSeenByRunningCode() : time.virtualNow
  }
}
