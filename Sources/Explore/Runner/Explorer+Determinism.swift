import EffectScheduler

extension Explorer {
  /// Starts the determinism check, once an exploration: runs the first-in-first-out schedule,
  /// noting the locks its steps take, so that the summary can say when the program keeps state
  /// behind locks the scheduler does not control. The check ends at the search's first run
  /// (``finishDeterminismCheck(matching:)``), which, with the same schedule and trace, is the
  /// replay the check needs: a program that behaves the same costs the check one run of its own.
  /// A failure of the program itself is left for the search to find and report.
  func checkDeterminism() throws(ExplorationFailure) {
    guard configuration.checksDeterminism, !checkedDeterminism else { return }
    checkedDeterminism = true
    let first = fifoRun()
    assumptions.formUnion(first.assumptions)
    guard first.failure == nil else { return }
    determinismRunToMatch = first
  }

  /// Ends the determinism check started by ``checkDeterminism()``, if it has not ended: `run`,
  /// the search's first run, took the first-in-first-out schedule and gave its trace, or the
  /// check makes a first-in-first-out run and its replay itself and compares them. What a process
  /// does once (a global made lazily, a library's first lock) happens in the first run of a
  /// program only, so where the two part, a first-in-first-out run and its replay are compared
  /// once more, and where they part again, the program is not deterministic.
  func finishDeterminismCheck(matching run: RunOutcome<Void>?) throws(ExplorationFailure) {
    guard let first = determinismRunToMatch else { return }
    determinismRunToMatch = nil
    if let run, run.schedule == first.schedule {
      if Self.sameRun(run.trace, first.trace) { return }
    } else if partedPair() == nil {
      // The search took another schedule first, or made no run: a pair of the check's own, not
      // one with `first`, made before the search's run, which may have changed what they share.
      return
    }
    guard let (again, second) = partedPair() else { return }
    throw nondeterminism(again, second)
  }

  /// A first-in-first-out run and its replay, where their traces part; `nil` where they do not,
  /// or where the run fails (a failure the search finds).
  private func partedPair() -> (RunOutcome<Void>, RunOutcome<Void>)? {
    let first = fifoRun()
    guard first.failure == nil else { return nil }
    let second = replay(first)
    return second.trace == first.trace ? nil : (first, second)
  }

  /// Whether `search`, the trace of a search's run, is `check`'s, the trace of a run of the
  /// determinism check, but for how the search watched its run: a reduced search's runs place
  /// each cancellation at the step that made it, which makes their events differ where a task was
  /// cancelled (the check then replays the schedule itself), and marks their traces so.
  private static func sameRun(_ search: Trace, _ check: Trace) -> Bool {
    var search = search
    search.cancellationsAtTheirStep = check.cancellationsAtTheirStep
    return search == check
  }

  /// The report of a first-in-first-out run, `first`, and its replay, `second`, that part.
  private func nondeterminism(_ first: RunOutcome<Void>, _ second: RunOutcome<Void>) -> ExplorationFailure {
    // Work from outside, coming back at its own time, is what makes such runs part: say so.
    if first.receivedWorkFromOutside || second.receivedWorkFromOutside || !first.handOffs.isEmpty || !second.handOffs.isEmpty {
      let run = first.outsideSteps.isEmpty && first.handOffs.isEmpty ? second : first
      let outside = WorkFromOutside(run)
      return ExplorationFailure(
        summary: outside.description + " Running the same schedule twice gave different traces.", location: location, strategy: "determinism check",
        scheduleNumber: runs + 1, schedule: first.schedule, trace: run.trace)
    }
    let step = zip(first.trace.events, second.trace.events).first { $0 != $1 }.map(\.0.step)
    return ExplorationFailure(
      summary: "nondeterminism: running the same schedule twice gave different traces"
        + (step.map { ", first at step \($0)" } ?? "")
        + ". The program depends on something outside the scheduler (real time, randomness, unmanaged threads or tasks, state shared between runs)."
        + ExplorationFailure.realClockReadsNote(second.trace),
      location: location, strategy: "determinism check", scheduleNumber: runs + 1, schedule: first.schedule, trace: second.trace)
  }

  /// A first-in-first-out run for the determinism check, noting the locks its steps take. It
  /// does not watch every task's cancelled flag after each step, as a reduced search's runs do:
  /// that costs a look at every live task a step, and the check compares its runs' traces only.
  private func fifoRun() -> RunOutcome<Void> {
    var fifo = FIFOStrategy()
    return runOnce(&fifo, explores: false, watchesLocks: true)
  }

  /// A replay of `run`'s schedule, noting the locks its steps take.
  private func replay(_ run: RunOutcome<Void>) -> RunOutcome<Void> {
    var replay = ReplayStrategy(run.schedule)
    return runOnce(&replay, explores: false, watchesLocks: true)
  }
}
