/// A wake-up the scheduler holds until the virtual clock reaches its deadline: the job the runtime
/// hands over for a sleep, which resumes the sleeping task when it runs.
struct VirtualTimer {
  /// When the job is due, on the run's virtual clock.
  let deadline: Duration
  /// Order of arrival, so timers due at the same instant wake in the order they were set.
  let sequence: Int
  let job: UnownedJob
  /// The task whose sleep it ends, if known.
  let owner: TaskID?
}

/// The virtual time a sleep asked for, recovered from its real deadline.
///
/// The runtime hands a sleep over as a deadline on a real clock: the time the sleeping code read
/// plus the duration it asked for. That read happened at some moment between the start of the
/// step and the hand-over, so the duration lies in `earliest...latest`; of the durations in that
/// window the one with the most trailing decimal zeros is taken, the earliest among equals.
/// `.milliseconds(300)` then comes back exactly, whatever the step cost in real time, and runs
/// agree with each other, which they must for replay.
func roundestDuration(from earliest: Duration, to latest: Duration) -> Duration {
  let low = max(0, earliest.nanoseconds)
  let high = max(low, latest.nanoseconds)
  var grid: Int64 = 1_000_000_000_000_000
  while grid > 1 {
    let (sum, overflow) = low.addingReportingOverflow(grid - 1)
    if !overflow {
      let candidate = sum / grid * grid
      if candidate <= high { return .nanoseconds(candidate) }
    }
    grid /= 10
  }
  return .nanoseconds(low)
}

