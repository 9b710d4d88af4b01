import Dispatch
import Foundation

/// Prints how a long exploration is doing to standard error, at most once an interval.
struct ProgressReporter {
  private let label: String
  private let interval: UInt64?
  private let write: @Sendable (String) -> Void
  private let start = DispatchTime.now().uptimeNanoseconds
  private var lastReport: UInt64
  /// Whether anything was printed, so the exploration also prints its summary.
  private(set) var reported = false

  /// - Parameter write: where lines go; standard error unless a test listens.
  init(label: String, interval: Duration?, write: @escaping @Sendable (String) -> Void = Self.writeToStandardError) {
    self.label = label
    self.interval = interval.map(\.clampedNanoseconds)
    self.write = write
    lastReport = start
  }

  static func writeToStandardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }

  /// Nanoseconds since the exploration started.
  var elapsed: UInt64 { DispatchTime.now().uptimeNanoseconds - start }

  /// Called after every run; cheap when it is not time to print.
  mutating func ranSchedule(_ count: Int) {
    guard let interval, count % 64 == 0 else { return }
    let now = DispatchTime.now().uptimeNanoseconds
    guard now - lastReport >= interval else { return }
    lastReport = now
    reported = true
    let rate = Double(count) / (Double(now - start) / 1e9)
    print("explore \(label): \(count) schedules so far, \(Int(rate)) schedules/s")
  }

  func print(_ line: String) { write(line) }

  /// Prints the summary of an exploration that passed, if it printed progress, or if it ran a
  /// shard: a shard always says what it covered, for the log of its CI job.
  func finished(_ summary: ExplorationSummary) {
    guard reported || (summary.shard != nil && interval != nil) else { return }
    print("explore \(label): \(summary)")
  }
}
