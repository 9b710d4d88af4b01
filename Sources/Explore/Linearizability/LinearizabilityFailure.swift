/// A scenario under which a type's calls gave results no sequential order of them explains, or
/// under which its exploration failed otherwise (a deadlock, nondeterminism, a crash of the body).
///
/// Its description is the report: the smallest failing scenario found, a table of each task's
/// calls with their results, why no sequential order explains them, the interleaving's trace, and
/// a replay line.
public struct LinearizabilityFailure: Error, CustomStringConvertible {
  /// What went wrong, in one paragraph.
  public var summary: String
  /// The `checkLinearizability` call, as `file:line`.
  public var location: String
  /// The smallest failing scenario found.
  public var scenario: Scenario?
  /// How many calls the scenario first found to fail made, before shrinking.
  public var callsBeforeShrinking: Int?
  /// The calls of the failing run, part by part, each with its result.
  public var calls: String?
  /// The failing exploration of the scenario: schedule and trace.
  public var exploration: ExplorationFailure?

  /// `scenario@schedule`: what ``LinearizabilityConfiguration/replay`` takes to rerun exactly the
  /// failing scenario and schedule.
  public var replayText: String? {
    guard let scenario, let schedule = exploration?.schedule else { return nil }
    return "\(scenario)@\(schedule)"
  }

  /// The variable setting that makes this check run only the failing scenario and schedule.
  public var replayEnvironment: String? {
    replayText.map { "\(LinearizabilityReplay.variable)='\(location)=\($0)'" }
  }

  /// Whether `checkLinearizability` recorded the report as a warning at its call before throwing
  /// this: Swift Testing then shows only the ``headline`` for the thrown failure.
  package var reportRecorded = false

  /// The report's first line: what went wrong, as the first line of ``summary`` says it.
  public var headline: String {
    "checkLinearizability found a failing scenario: " + (summary.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
  }

  /// The full report, the ``headline`` first.
  public var description: String {
    var lines = [headline]
    let rest = summary.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
    if !rest.isEmpty { lines.append("  " + rest.joined(separator: "\n  ")) }
    lines.append("  check:    \(location)")
    if let scenario {
      let shrunk = callsBeforeShrinking.map { $0 > scenario.callCount ? " (shrunk from \($0) calls)" : "" } ?? ""
      lines.append("  scenario: \(scenario.callCount) calls, \(scenario.parallel.count) tasks\(shrunk)")
    }
    if let calls { lines.append(calls) }
    if let exploration {
      lines.append("  strategy: \(exploration.strategy)" + (exploration.scheduleNumber.map { ", schedule #\($0)" } ?? ""))
      if let schedule = exploration.schedule { lines.append("  schedule: \(schedule)") }
      lines += exploration.traceLines
    }
    if let replayText, let replayEnvironment {
      lines.append("replay it: configuration.replay = \"\(replayText)\"")
      lines.append("       or: \(replayEnvironment) swift test")
    }
    return lines.joined(separator: "\n")
  }
}
