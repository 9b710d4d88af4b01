import EffectScheduler

extension ExplorationFailure {
  /// The report for a failed run, or `nil` when the run passed.
  init?(of outcome: RunOutcome<Void>, location: String, strategy: ExplorationStrategy, scheduleNumber: Int, seed: UInt64?, preemptions: Int) {
    let summary: String
    let error: any Error
    // A run cut short left the model: what followed is not judged, but what the body recorded
    // before it was is a failure all the same.
    if let cut = outcome.record.time.cutAtStep {
      guard let issue = outcome.record.trail.issueRecorded else { return nil }
      error = RecordedIssue(description: issue)
      summary = "the body recorded an issue: \(issue) (in a run stopped at step \(cut), where a task delayed past a timer fired early read the clock)"
    } else if let schedulerError = outcome.failure, case .diverged(let divergence) = schedulerError.reason,
      outcome.record.receivedWorkFromOutside || !outcome.record.trail.handOffs.isEmpty
    {
      // Work that came back from outside at its own time is what made the runs part.
      let failure = WorkFromOutside(outcome)
      error = failure
      summary = failure.description + " The runs parted because of it: \(divergence)"
    } else if let schedulerError = outcome.failure, schedulerError.reason.isStuck, !outcome.record.trail.handOffs.isEmpty {
      // Work handed to Dispatch comes back at its own time: on a busy machine, after the wait for
      // it ended. Whether the run got stuck depends on that time, not only on the schedule.
      let failure = WorkFromOutside(outcome)
      error = failure
      summary = failure.description + " The run then got stuck waiting for it: \(schedulerError.summary)"
    } else if let schedulerError = outcome.failure {
      error = schedulerError
      if case .diverged(let divergence) = schedulerError.reason, !strategy.isReplay {
        summary = "nondeterminism: the same choices led to different ready jobs, so the program depends on something outside the scheduler (real time, randomness, unmanaged threads or tasks, state shared between runs). \(divergence)"
      } else {
        summary = schedulerError.summary
      }
    } else if case .failure(let thrown)? = outcome.result {
      error = thrown
      summary = thrown is RecordedIssue ? "the body recorded an issue: \(thrown)" : "the body threw: \(String(reflecting: thrown))"
    } else if !outcome.record.trail.outsideSteps.isEmpty || !outcome.record.trail.handOffs.isEmpty {
      let failure = WorkFromOutside(outcome)
      error = failure
      summary = failure.description
    } else {
      return nil
    }
    self.init(
      summary: summary + Self.realClockReadsNote(outcome.trace), location: location, strategy: strategy.description,
      scheduleNumber: scheduleNumber, seed: seed,
      preemptions: (preemptions, preemptions), schedule: outcome.schedule, trace: outcome.trace, underlyingError: error)
  }

  /// Where the clocks' reads keep real time, says so of a run that slept: code that measures time
  /// around its sleeps then sees none pass, which may be what failed.
  static func realClockReadsNote(_ trace: Trace) -> String {
    guard !clockReadsAreVirtual, !trace.clockAdvances.isEmpty else { return "" }
    return " (The program slept on the virtual clock, but its reads of ContinuousClock.now and SuspendingClock.now"
      + " keep real time on this platform: code that measures time around a sleep sees none pass. SchedulerClock reads the virtual clock.)"
  }

  init(summary: String, location: String, strategy: String, scheduleNumber: Int? = nil, schedule: Schedule? = nil, trace: Trace? = nil) {
    self.init(
      summary: summary, location: location, strategy: strategy, scheduleNumber: scheduleNumber, seed: nil,
      preemptions: nil, schedule: schedule, trace: trace, underlyingError: nil)
  }
}

extension WorkFromOutside {
  /// The work from outside a run took part in, with the tasks it resumed.
  init(_ outcome: RunOutcome<Void>) {
    let trace = outcome.trace
    var resumed: [String] = []
    for event in trace.events where event.fromOutside {
      guard let task = event.task, let info = trace[task: task], !resumed.contains(info.description) else { continue }
      resumed.append(info.description)
    }
    let handedOver = outcome.record.trail.handOffs.map { handOff in
      "\(handOff.call) at step \(handOff.step)" + (handOff.task.flatMap { trace[task: $0] }.map { " by \($0)" } ?? "")
    }
    self.init(steps: outcome.record.trail.outsideSteps, resumed: resumed, handedOver: handedOver)
  }
}
