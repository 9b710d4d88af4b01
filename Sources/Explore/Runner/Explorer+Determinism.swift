import EffectScheduler

/// Where an exploration's determinism check stands.
enum DeterminismCheck {
  /// Not started: the exploration has not asked for it yet.
  case notStarted
  /// Waiting for the search's first run, which is its first.
  case awaitingFirstRun
  /// Holding the search's first run, to replay before the search goes on.
  case replaying(RunOutcome<Void>)
  /// Ended: passed, dropped, or left to the search because the first run failed.
  case ended
}

extension Explorer {
  /// Starts the determinism check, once an exploration: the search's first run is the check's
  /// first (``noteDeterminismRun(_:)``), noting the locks its steps take, so that the summary can
  /// say when the program keeps state behind locks the scheduler does not control; before the
  /// search runs another, or claims every schedule on that one alone, a replay of its schedule
  /// must give the same trace (``finishDeterminismCheck()``). A search that stops at one run
  /// claims a sample, which needs no replay: one schedule of a long run then costs one run.
  func checkDeterminism() {
    guard configuration.checksDeterminism, case .notStarted = determinism else { return }
    determinism = .awaitingFirstRun
  }

  /// Keeps `run`, if it is the run the determinism check waits for and it passed: a failure is
  /// the search's to report.
  func noteDeterminismRun(_ run: RunOutcome<Void>) {
    guard case .awaitingFirstRun = determinism else { return }
    determinism = run.failure == nil ? .replaying(run) : .ended
  }

  /// Ends the determinism check, if it has not ended: replays the search's first run and compares
  /// the traces, or, where the search has made no run (its runs are made on other threads),
  /// compares a first-in-first-out run and its replay. What a process does once (a global made
  /// lazily, a library's first lock) happens in the first run of a program only, so where the two
  /// part, a first-in-first-out run and its replay are compared once more, and where they part
  /// again, the program is not deterministic.
  func finishDeterminismCheck() throws(ExplorationFailure) {
    let state = determinism
    determinism = .ended
    switch state {
    case .replaying(let first):
      if Self.sameRun(replay(first).trace, first.trace) { return }
    case .awaitingFirstRun:
      guard partedPair() != nil else { return }
    case .notStarted, .ended:
      return
    }
    guard let (again, second) = partedPair() else { return }
    throw nondeterminism(again, second)
  }

  /// Ends the determinism check unmade: the search claims only the schedules it ran.
  func dropDeterminismCheck() {
    if case .notStarted = determinism { return }
    determinism = .ended
  }

  /// A first-in-first-out run and its replay, where their traces part; `nil` where they do not,
  /// or where the run fails (a failure the search finds).
  private func partedPair() -> (RunOutcome<Void>, RunOutcome<Void>)? {
    let first = fifoRun()
    guard first.failure == nil else { return nil }
    let second = replay(first)
    return second.trace == first.trace ? nil : (first, second)
  }

  /// Whether `replay`, the trace of a replay, is `search`'s, the trace of a search's run, but for
  /// how the search watched its run: a reduced search's runs place each cancellation at the step
  /// that made it, which makes their events differ where a task was cancelled (a second pair of
  /// runs then decides), and marks their traces so.
  private static func sameRun(_ replay: Trace, _ search: Trace) -> Bool {
    var replay = replay
    replay.cancellationsAtTheirStep = search.cancellationsAtTheirStep
    return replay == search
  }

  /// The report of a first-in-first-out run, `first`, and its replay, `second`, that part.
  private func nondeterminism(_ first: RunOutcome<Void>, _ second: RunOutcome<Void>) -> ExplorationFailure {
    // Work from outside, coming back at its own time, is what makes such runs part: say so.
    if first.record.receivedWorkFromOutside || second.record.receivedWorkFromOutside || !first.record.trail.handOffs.isEmpty || !second.record.trail.handOffs.isEmpty {
      let run = first.record.trail.outsideSteps.isEmpty && first.record.trail.handOffs.isEmpty ? second : first
      let outside = WorkFromOutside(run)
      return ExplorationFailure(
        summary: outside.description + " Running the same schedule twice gave different traces.", location: location, strategy: "determinism check",
        scheduleNumber: 1, schedule: first.schedule, trace: run.trace)
    }
    let step = zip(first.trace.events, second.trace.events).first { $0 != $1 }.map(\.0.step)
    return ExplorationFailure(
      summary: "nondeterminism: running the same schedule twice gave different traces"
        + (step.map { ", first at step \($0)" } ?? "")
        + ". The program depends on something outside the scheduler (real time, randomness, unmanaged threads or tasks, state shared between runs)."
        + ExplorationFailure.realClockReadsNote(second.trace),
      location: location, strategy: "determinism check", scheduleNumber: 1, schedule: first.schedule, trace: second.trace)
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
