import EffectScheduler

/// Following each ready job from one choice to the next: which step made it ready, and where it
/// ran.
extension StepAccesses {
  /// Follows each ready job from choice to choice, into ``jobs``, ``enabledBy`` and
  /// ``enabledByClock``; false when a ready list is not the one before it less the job picked,
  /// plus jobs added at the end. The choice to fire a timer, last when offered, is no job.
  ///
  /// The first `shared` steps made the same choices from the same ready jobs as those of
  /// `previous`: where the clock moved on before the same ones of them, what following them
  /// found then is copied, and the jobs are followed from the first step after those.
  func followJobs(ready: ReadyLists, chosen: [Int], resumingFrom previous: StepAccesses?, sharing shared: Int) -> Bool {
    let steps = chosen.count
    jobs.removeAll()
    enabledBy.removeAll(keepingCapacity: true)
    enabledByClock.removeAll(keepingCapacity: true)
    // Job numbers by ready position, and for each job number where it came from.
    var current = Array.takingStorage(of: &scratch.current)
    var madeReadyBy = Array.takingStorage(of: &scratch.madeReadyBy)
    var madeReadyByClock = Array.takingStorage(of: &scratch.madeReadyByClock)
    defer {
      scratch.current = current
      scratch.madeReadyBy = madeReadyBy
      scratch.madeReadyByClock = madeReadyByClock
    }
    var from = 0
    if let previous, previous !== self {
      let limit = min(shared, steps, previous.jobs.numberRunAt.count)
      while from < limit, movesClock[from] == previous.movesClock[from] { from += 1 }
    }
    var firedTimer = false
    if let previous, from > 0 {
      let before = previous.jobs
      jobs.numbers.append(contentsOf: before.numbers[..<before.firstNumberOf[from]])
      jobs.firstNumberOf.append(contentsOf: before.firstNumberOf[..<from])
      jobs.numberRunAt.append(contentsOf: before.numberRunAt[..<from])
      jobs.knownAfter.append(contentsOf: before.knownAfter[..<from])
      // A step's new jobs are noted as it is followed, with the step before it.
      jobs.madeReady.append(contentsOf: before.madeReady.prefix { $0.step < from - 1 })
      enabledBy.append(contentsOf: previous.enabledBy[..<from])
      enabledByClock.append(contentsOf: previous.enabledByClock[..<from])
      // The jobs ready at the last step copied, less the one it ran, as following it left them.
      current.append(contentsOf: before.numbers[before.firstNumberOf[from - 1]..<before.firstNumberOf[from]])
      firedTimer = chosen[from - 1] == current.count
      if !firedTimer { current.remove(at: chosen[from - 1]) }
      let known = before.knownAfter[from - 1]
      madeReadyBy.append(contentsOf: previous.scratch.madeReadyBy[..<known])
      madeReadyByClock.append(contentsOf: previous.scratch.madeReadyByClock[..<known])
    }
    enabledBy.append(contentsOf: repeatElement(nil, count: steps - from))
    enabledByClock.append(contentsOf: repeatElement(nil, count: steps - from))
    return ready.withBuffers { lists, starts in
      for step in from..<steps {
        let list = starts[step]..<starts[step + 1]
        let count = list.count - (!list.isEmpty && lists[list.upperBound - 1].firesTimer ? 1 : 0)
        if step == 0 {
          current.append(contentsOf: 0..<count)
          madeReadyBy.append(contentsOf: repeatElement(-1, count: count))
          madeReadyByClock.append(contentsOf: repeatElement(-1, count: count))
        } else {
          // The jobs ready before, less the one that ran, then those the step before made ready.
          let before = starts[step - 1]..<list.lowerBound
          guard count >= current.count, Self.jobsLeft(lists, before, chosen: chosen[step - 1], firesTimer: firedTimer, are: list) else { return false }
          let byClock = movesClock[step]
          for position in (list.lowerBound + current.count)..<(list.lowerBound + count) {
            current.append(madeReadyBy.count)
            madeReadyBy.append(byClock ? -1 : step - 1)
            madeReadyByClock.append(byClock ? step : -1)
            if !byClock { jobs.madeReady.append((step - 1, lists[position])) }
          }
        }
        // Each position is inside its step's list: `fill` checked it when it looked the jobs up.
        guard count == current.count else { return false }
        jobs.knownAfter.append(madeReadyBy.count)
        jobs.firstNumberOf.append(jobs.numbers.count)
        jobs.numbers.append(contentsOf: current)
        firedTimer = chosen[step] == current.count
        jobs.numberRunAt.append(-1)
        if !firedTimer {
          let job = current.remove(at: chosen[step])
          jobs.numberRunAt[step] = job
          if madeReadyBy[job] >= 0 { enabledBy[step] = madeReadyBy[job] }
          if madeReadyByClock[job] >= 0 { enabledByClock[step] = madeReadyByClock[job] }
        }
      }
      jobs.firstNumberOf.append(jobs.numbers.count)
      return true
    }
  }

  /// Whether the jobs of `lists` at `next` begin with those at `jobs` less the one at `chosen`,
  /// unless it fired a timer.
  static func jobsLeft(
    _ lists: UnsafeBufferPointer<ReadyJob>, _ jobs: Range<Int>, chosen: Int, firesTimer: Bool, are next: Range<Int>
  ) -> Bool {
    let count = jobs.count - (!jobs.isEmpty && lists[jobs.upperBound - 1].firesTimer ? 1 : 0)
    var position = next.lowerBound
    for index in 0..<count where firesTimer || index != chosen {
      guard position < next.upperBound, lists[position] == lists[jobs.lowerBound + index] else { return false }
      position += 1
    }
    return true
  }

  /// What ``followJobs(ready:chosen:)`` finds, besides what made each step's job ready.
  struct FollowedJobs {
    /// The number of each job ready at each step, by ready position, one step's list after
    /// another, and where each step's list begins (with the end of the last at the end).
    var numbers: [Int] = []
    var firstNumberOf: [Int] = []
    /// By step, the number of the job it ran, or -1 for a timer.
    var numberRunAt: [Int] = []
    /// Each job a step made ready, with that step.
    var madeReady: [(step: Int, job: ReadyJob)] = []
    /// By step, how many jobs had a number once its ready jobs were followed.
    var knownAfter: [Int] = []

    /// Empties every list, keeping its storage.
    mutating func removeAll() {
      knownAfter.removeAll(keepingCapacity: true)
      numbers.removeAll(keepingCapacity: true)
      firstNumberOf.removeAll(keepingCapacity: true)
      numberRunAt.removeAll(keepingCapacity: true)
      madeReady.removeAll(keepingCapacity: true)
    }
  }

  /// The arrays the passes work in, kept with the facts so that filling them again reuses them.
  struct Scratch {
    var current: [Int] = []
    var madeReadyBy: [Int] = []
    var madeReadyByClock: [Int] = []
    /// By task number: its last step so far, or -1 (``recordOwnWork(trace:)``); how many tasks
    /// it made that completed without waking it (``recordChildren(_:)``); the step at which it
    /// completed, or -1 (``recordSharingOutsideActors(trace:leftWaiting:)``).
    var byTask: [Int] = []
    /// The actors' new numbers (``numberActorsByFirstTouch()``).
    var actorNumbering = ActorNumbering()
    /// The tasks made with `Task {}` whose completions are touched one by one, and those set
    /// apart (``recordChildren(_:)``).
    var made: [(maker: TaskID, task: TaskID, step: Int)] = []
    var separate: [(maker: TaskID, task: TaskID, step: Int)] = []
    /// By task number, the task it was joined with (``recordSharingOutsideActors(trace:leftWaiting:)``).
    var joinedWith: [Int] = []
  }

  /// The first step before `limit` whose facts differ from those of the same step of `other`, a
  /// run that made the same choices from the same ready jobs up to `limit`, or `limit`: what it
  /// touched, its thread, what made its job ready, its timers, and whether the clock moved on
  /// before it, and how (a barrier, movable, or the firing of a timer due at the instant it was at
  /// already). A step's facts may depend on later steps (a task's step before its work runs on
  /// an actor touches the actor, a waker touches the task it woke), so two such runs may differ
  /// before they part.
  func firstDifference(from other: StepAccesses, upTo limit: Int) -> Int {
    var moves = 0
    for step in 0..<limit {
      while moves < clockSteps.count, clockSteps[moves] < step { moves += 1 }
      let moved = moves < clockSteps.count && clockSteps[moves] == step
      let movedThen = other.clockSteps.contains(step)
      guard threads[step] == other.threads[step], objects[step] == other.objects[step],
        touchesEverything[step] == other.touchesEverything[step], outsideActors[step] == other.outsideActors[step],
        firesTimer[step] == other.firesTimer[step], firesEarlyTimer[step] == other.firesEarlyTimer[step],
        affectsTimer[step] == other.affectsTimer[step], enabledBy[step] == other.enabledBy[step],
        enabledByClock[step] == other.enabledByClock[step], timerPositions[step] == other.timerPositions[step],
        moved == movedThen, !moved || movableClockSteps.contains(step) == other.movableClockSteps.contains(step),
        !moved || sameInstantClockSteps.contains(step) == other.sameInstantClockSteps.contains(step),
        memory.sameTouches(atStep: step, as: other.memory)
      else { return step }
    }
    return limit
  }

  /// Whether `other` holds the same facts as these, step by step, and followed the ready jobs to
  /// the same numbers: the check for tests of facts filled from where a run parted from the one
  /// before.
  func hasSameFacts(as other: StepAccesses) -> Bool {
    threads.count == other.threads.count && firstDifference(from: other, upTo: threads.count) == threads.count
      && clockSteps == other.clockSteps && movableClockSteps == other.movableClockSteps && jobs.numbers == other.jobs.numbers
      && jobs.firstNumberOf == other.jobs.firstNumberOf && jobs.numberRunAt == other.jobs.numberRunAt && jobs.knownAfter == other.jobs.knownAfter
      && jobs.madeReady.map(\.step) == other.jobs.madeReady.map(\.step) && jobs.madeReady.map(\.job) == other.jobs.madeReady.map(\.job)
  }

  /// The position among the jobs ready at step `i` of the job that ran at step `step`, if it was
  /// ready there.
  func position(atStep i: Int, ofJobRunAt step: Int) -> Int? {
    let number = jobs.numberRunAt[step]
    guard number >= 0 else { return nil }
    let list = jobs.firstNumberOf[i]..<jobs.firstNumberOf[i + 1]
    return list.firstIndex { jobs.numbers[$0] == number }.map { $0 - list.lowerBound }
  }
}
