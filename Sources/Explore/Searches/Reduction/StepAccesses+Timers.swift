import EffectScheduler

/// What the run's timers and the moves of its virtual clock order: the steps the clock moved
/// before, the timers due together, and the steps that affect a timer.
extension StepAccesses {
  /// A timer fired when due changes no time: it only wakes its task, and takes its turn among the
  /// timers due at its instant. So its step touches that task and those timers, and depends on no
  /// other step that affects a timer (``affectsTimer``), as one fired early does.
  func recordDueFirings() {
    for (step, timer) in dueTimers.firstOffered where firesTimer[step] {
      if let owner = timer.owner { objects[step].insert(.task(owner)) }
      objects[step].insert(.timersDue(at: timer.deadline))
    }
  }

  /// Timers due at the same instant fire in the order they were set, so a step that sets one
  /// touches the timers due then: in another run, another step may set one due then too.
  func recordTimersDueTogether(_ trace: Trace) {
    for setting in trace.timersSet where setting.step < threads.count { objects[setting.step].insert(.timersDue(at: setting.deadline)) }
  }

  /// The steps before which the clock moved on, or fired a timer due at the instant it was at,
  /// because no job was ready: every move and firing, less those of timers fired at the
  /// strategy's pick, each recorded at the step that fired it.
  static func naturalClockSteps(_ trace: Trace, firesTimer: [Bool]) -> [Int] {
    var picked = Set(firesTimer.indices.filter { firesTimer[$0] })
    var natural: [Int] = []
    let firings = (trace.clockAdvances.map(\.step) + trace.dueTimerFirings).sorted()
    for step in firings.reversed() {
      if picked.remove(step) != nil { continue }
      if step > 0 && step < firesTimer.count && natural.last != step { natural.append(step) }
    }
    return natural.reversed()
  }

  /// The clock's moves before which a timer could have fired earlier, in some order of the steps
  /// before: those before which the run had fired fewer timers early than `allowed`, and those
  /// that fired a timer due at the instant the clock was at already (`sameInstant`), which could
  /// have fired as soon as the clock got there.
  static func movableClockSteps(_ clockSteps: [Int], firesTimer: [Bool], allowed: Int, sameInstant: Set<Int>) -> Set<Int> {
    var movable: Set<Int> = []
    var fired = 0
    var moves = clockSteps[...]
    for step in firesTimer.indices {
      while moves.first == step {
        moves.removeFirst()
        if fired < allowed || sameInstant.contains(step) { movable.insert(step) }
      }
      // A timer that fired when due is no early firing.
      if firesTimer[step], !sameInstant.contains(step) { fired += 1 }
    }
    return movable
  }

  /// Marks the steps that affect a timer fired early (see ``affectsTimer``): a step that read the
  /// clock or began a sleep, every later step of a task that did (no timer fires early while such
  /// a task is ready), every step of a task cancelled in the run, and a step that made a job of
  /// another task ready. And a timer fired early is no job: it touches only the tasks it wakes.
  func recordTimerEffects(_ trace: Trace) {
    affectsTimer.removeAll(keepingCapacity: true)
    affectsTimer.append(contentsOf: repeatElement(false, count: threads.count))
    var timed = trace.timedSteps[...]
    var keepsTime = TaskFlags()
    // A task delayed by a timer fired early and cancelled by its next job is cut there: which of
    // its jobs is the first since the delay depends on where the timer fires among its steps.
    var cancelled = TaskFlags()
    var anyCancelled = false
    for event in trace.events where event.kind == .cancelled {
      if let task = event.task {
        cancelled[task] = true
        anyCancelled = true
      }
    }
    // Without a step that read the clock or slept, or a task cancelled, no step is marked here.
    let marksSteps = !timed.isEmpty || anyCancelled
    for step in threads.indices where marksSteps {
      while let first = timed.first, first < step { timed.removeFirst() }
      if timed.first == step {
        affectsTimer[step] = true
        for task in ownTasks[step] { keepsTime[task] = true }
      } else if ownTasks[step].contains(where: { keepsTime[$0] || cancelled[$0] }) {
        affectsTimer[step] = true
      }
    }
    for (step, job) in jobs.madeReady where !(job.owner.map(ownTasks[step].contains) ?? false) { affectsTimer[step] = true }
  }
}
