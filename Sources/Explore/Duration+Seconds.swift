extension Duration {
  /// The duration in seconds, as a `Double`.
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }

  /// The duration in whole nanoseconds, from zero for a negative one up to about 31 years, so
  /// that sums and shares of it cannot overflow.
  var clampedNanoseconds: UInt64 {
    let (seconds, attoseconds) = components
    guard seconds >= 0, attoseconds >= 0 else { return 0 }
    return UInt64(min(seconds, 1_000_000_000)) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
  }
}
