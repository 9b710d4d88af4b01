import EffectScheduler

/// The failing schedule an exploration found, with everything needed to read and replay it.
///
/// Its description is the report a failing test prints: what went wrong, on its first line
/// (``headline``), where, under which strategy and schedule (and the step at which a timer fired
/// early, if one did), the trace as a table with one column a task, and a one-line replay.
public struct ExplorationFailure: Error, CustomStringConvertible {
  /// What went wrong, in one paragraph.
  public var summary: String
  /// The `explore` call, as `file:line`.
  public var location: String
  /// The strategy that found the schedule, and how: a failure that PCT's first-in-first-out run
  /// found before any PCT run says so here.
  public var strategy: String
  /// Which run of the exploration failed, counting from 1; `nil` for a run outside the strategy's
  /// own schedules, such as PCT's first-in-first-out run.
  public var scheduleNumber: Int?
  /// The seed that reproduces the run that first failed, for random and PCT runs; `nil` when the
  /// failing run drew no random numbers, such as PCT's first-in-first-out run.
  public var seed: UInt64?
  /// The number of preemptions in the reported schedule, and in the one first found if a search
  /// for fewer preemptions replaced it.
  public var preemptions: (reported: Int, found: Int)?
  /// The failing schedule.
  public var schedule: Schedule?
  /// What happened in the failing run.
  public var trace: Trace?
  /// The error the body threw, or the `SchedulerError` that stopped the run.
  public var underlyingError: (any Error)?
  /// The part of the default portfolio (``ExplorationStrategy/default``) whose run failed first;
  /// `nil` for other strategies. The ``strategy`` line of the report names it too.
  public var portfolioPart: PortfolioPart? = nil
  /// The shard whose share of the schedules the exploration ran, if it ran one (see ``Shard``).
  /// ``scheduleNumber`` counts that shard's runs; the schedule replays in any process.
  public var shard: Shard? = nil

  /// Whether `explore` recorded the report as a warning at its call before throwing this: Swift
  /// Testing then shows only the ``headline`` for the thrown failure, so the report appears once.
  package var reportRecorded = false

  /// How many steps of the trace the report shows at most.
  static let shownSteps = 120

  /// The line to paste into the test to run exactly the failing schedule.
  public var replayCall: String? {
    schedule.map { "try await explore(.replay(\"\($0)\")) { … }" }
  }

  /// The environment variable setting that makes this `explore` call run only the failing schedule.
  public var replayEnvironment: String? {
    schedule.map { "\(ReplayRequest.variable)='\(location)=\($0)'" }
  }

  /// The trace as the report shows it, under its heading; empty without a trace.
  var traceLines: [String] {
    guard let trace else { return [] }
    return ["trace, a column a task; n→m ran from suspension point n to m:", trace.table(lastSteps: Self.shownSteps)]
  }

  /// The report's first line: what went wrong, as the first line of ``summary`` says it, such as
  /// `explore found a failing schedule: the body threw: the bank holds 130 in total, not 100`.
  public var headline: String {
    "explore found a failing schedule: " + (summary.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
  }

  /// The full report, the ``headline`` first.
  public var description: String {
    var lines = [headline]
    let rest = summary.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
    if !rest.isEmpty { lines.append("  " + rest.joined(separator: "\n  ")) }
    lines.append("  explore:  \(location)")
    lines.append("  strategy: \(strategy)" + (scheduleNumber.map { ", schedule #\($0)" } ?? ""))
    if let shard { lines.append("  shard:    \(shard.index) of \(shard.count) (the replay below needs no shard)") }
    let minimized = preemptions.map { $0.found > $0.reported } ?? false
    if let seed {
      lines.append("  seed:     \(seed)" + (minimized ? " (it reproduces the first failing schedule found, not the one below)" : ""))
    }
    if let preemptions {
      let note = minimized ? " (the first failing schedule found had \(preemptions.found))" : ""
      lines.append("  preemptions: \(preemptions.reported)\(note)")
    }
    if let schedule {
      lines.append("  schedule: \(schedule)")
      if let step = schedule.choices.firstIndex(of: .timer) {
        lines.append(
          "  timer:    fired early at step \(step), as if the jobs then ready were delayed past its deadline "
            + "(ExploreConfiguration.scheduler.earlyTimerFirings; 0 turns it off)")
      }
    }
    lines += traceLines
    if let replayCall, let replayEnvironment {
      lines.append("replay it: \(replayCall)")
      lines.append("       or: \(replayEnvironment) swift test")
    }
    return lines.joined(separator: "\n")
  }
}
