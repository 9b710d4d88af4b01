/// What an exploration that found no failure did.
public struct ExplorationSummary: Hashable, Sendable, CustomStringConvertible {
  /// The strategy that ran.
  public var strategy: String
  /// How many schedules the strategy ran (the determinism check's two runs not counted).
  public var schedules: Int
  /// How many different traces those schedules produced.
  public var distinctTraces: Int
  /// Whether an exhaustive search tried every schedule there is.
  public var exploredEverySchedule: Bool
  /// How long the exploration took.
  public var duration: Duration

  /// Creates a summary.
  public init(strategy: String, schedules: Int, distinctTraces: Int, exploredEverySchedule: Bool, duration: Duration) {
    self.strategy = strategy
    self.schedules = schedules
    self.distinctTraces = distinctTraces
    self.exploredEverySchedule = exploredEverySchedule
    self.duration = duration
  }

  /// `1680 schedules, 1680 distinct traces, every schedule explored, in 0.05 s (33600 schedules/s)`.
  public var description: String {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    let rate = seconds > 0 ? " (\(Int(Double(schedules) / seconds)) schedules/s)" : ""
    let rounded = (seconds * 1000).rounded() / 1000
    return "\(schedules) schedules, \(distinctTraces) distinct traces"
      + (exploredEverySchedule ? ", every schedule explored" : "")
      + ", in \(rounded) s\(rate) [\(strategy)]"
  }
}
