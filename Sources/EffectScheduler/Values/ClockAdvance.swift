/// A move of a run's virtual clock: before `step`, nothing could run, so the clock jumped to
/// `time`, the earliest deadline a sleeping task waited for, and the tasks due then woke.
public struct ClockAdvance: Hashable, Sendable, CustomStringConvertible {
  /// The step before which the clock moved.
  public var step: Int
  /// The virtual time it moved to, counted from the start of the run.
  public var time: Duration

  /// Creates a clock advance.
  package init(step: Int, time: Duration) {
    self.step = step
    self.time = time
  }

  /// `before step 4: 300ms`.
  public var description: String { "before step \(step): \(time.compactDescription)" }
}

extension Duration {
  /// `0`, `250µs`, `300ms`, `1.5s`: the shortest exact form in one unit, for traces.
  package var compactDescription: String {
    let nanoseconds = self.nanoseconds
    if nanoseconds == 0 { return "0" }
    for (unit, size) in [("s", Int64(1_000_000_000)), ("ms", 1_000_000), ("µs", 1_000)] where nanoseconds >= size {
      let whole = nanoseconds / size
      let rest = nanoseconds % size
      if rest == 0 { return "\(whole)\(unit)" }
      var fraction = String(rest)
      fraction = String(repeating: "0", count: String(size).count - 1 - fraction.count) + fraction
      while fraction.last == "0" { fraction.removeLast() }
      return "\(whole).\(fraction)\(unit)"
    }
    return "\(nanoseconds)ns"
  }
}
