/// A `Duration` in the units the library's clocks and waits take, worked out in one place.
extension Duration {
  /// The duration in whole nanoseconds, saturating.
  package var nanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? .min : .max }
    return whole.addingReportingOverflow(attoseconds / 1_000_000_000).overflow ? .max : whole + attoseconds / 1_000_000_000
  }

  /// The duration in whole nanoseconds, from zero for a negative one up to about 31 years, so
  /// that sums and shares of it cannot overflow.
  package var clampedNanoseconds: UInt64 {
    let (seconds, attoseconds) = components
    guard seconds >= 0, attoseconds >= 0 else { return 0 }
    return UInt64(min(seconds, 1_000_000_000)) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
  }

  /// The duration in seconds, as a `Double`.
  package var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
