extension StepAccesses {
  /// A choice point where another option must be tried, because a race of the run could go the
  /// other way: the options that would start the other order, and the best of them. Trying any
  /// one of them is enough. A set of positions rather than a list, as a run finds a reversal for
  /// each race, and a list would cost an allocation each.
  struct Reversal: Equatable {
    let step: Int
    /// The option that starts the race's later step itself, where one does; else the first found.
    let best: Int
    let options: PositionSet
    /// The race's later step.
    let later: Int
    /// Whether every one of the options must be tried, where the race does not fit the model.
    var everyOption = false
  }

  /// The races of a run that only timers start, which every run looks for in full (see
  /// ``RacePass``, which finds the others): `thread` numbers each step's thread, `order` is the
  /// run's, and `previousOfThread` gives each step's thread's step before it, or -1.
  func timerReversals(thread: [Int], order: HappensBefore, previousOfThread: [Int]) -> [Reversal] {
    var reversals: [Reversal] = []
    // A timer pending at a step that affects it could have fired before it: one fired early, any
    // step that affects a timer; one due already (the first of those due then), a step that
    // touches the task of any timer due then, or the timers due at that instant.
    for step in threads.indices where !firesTimer[step] {
      guard let timer = timerPositions[step] else { continue }
      let affected = dueTimers.touchesTimerDue(at: step, objects: objects[step]) ?? affectsTimer[step]
      if affected { reversals.append(Reversal(step: step, best: timer, options: [timer], later: step)) }
    }
    // A timer that the clock's move fired, while the run could still fire one early, could have
    // fired before a step that affects it and came before the sleep that set it, had the sleep
    // begun first: the step and the sleep's beginning race, as a timer fired early races with the
    // steps that affect it. (Once the sleep has begun, the rule above tries firing it.)
    // The steps before the sleep that do not happen before it are, in each column of the clocks,
    // those after the sleep's entry for it: only they are looked at, not every step before.
    var stepsOfColumn: [[Int]]?
    var unordered: [Int] = []
    for woken in threads.indices {
      guard let move = enabledByClock[woken], movableClockSteps.contains(move), !sameInstantClockSteps.contains(move) else { continue }
      let sleep = previousOfThread[woken]
      guard sleep >= 0 else { continue }
      if stepsOfColumn == nil { stepsOfColumn = order.stepsOfColumn() }
      unordered.removeAll(keepingCapacity: true)
      for (column, steps) in stepsOfColumn!.enumerated() {
        var index = steps.partitionPoint { $0 > order.latest(ofColumn: column, before: sleep) }
        while index < steps.count, steps[index] < sleep {
          unordered.append(steps[index])
          index += 1
        }
      }
      unordered.sort()
      for step in unordered where affectsTimer[step] && !firesTimer[step] && thread[step] != thread[sleep] {
        reversals.append(reversal(of: step, and: sleep, order: order))
      }
    }
    return reversals
  }

  /// The options at `i`'s choice point that start the other order of the race between `i` and
  /// `j`: the first steps, among those after `i` that do not follow it, and `j`, that follow none
  /// of the others; `j`'s own first.
  func reversal(of i: Int, and j: Int, order: HappensBefore) -> Reversal {
    func happensBefore(_ a: Int, _ b: Int) -> Bool { order.precedes(a, b) }
    // The steps after `i` that do not follow it, up to `j`, and `j`, walked without a list of them.
    let notAfter = (min(i + 1, j)...j).lazy.filter { $0 == j || !happensBefore(i, $0) }
    var options = PositionSet()
    var first: Int?
    // The option at `i` that starts `step`: its job, or the timer that fired it or woke its task.
    func option(starting step: Int) -> Int? {
      if let position = position(atStep: i, ofJobRunAt: step) { return position }
      if firesTimer[step] || enabledByClock[step].map(movableClockSteps.contains) == true { return timerPositions[i] }
      return nil
    }
    for step in notAfter where !notAfter.prefix(while: { $0 < step }).contains(where: { happensBefore($0, step) }) {
      if let position = option(starting: step) {
        options.insert(position)
        first = first ?? position
      }
    }
    // A first step whose job was not ready at `i` means the steps do not fit the model; every
    // option is then tried.
    guard let first else {
      var every = PositionSet(0..<jobCount(atStep: i))
      if let timer = timerPositions[i] { every.insert(timer) }
      return Reversal(step: i, best: 0, options: every, later: j, everyOption: true)
    }
    if let own = option(starting: j), options.contains(own) { return Reversal(step: i, best: own, options: options, later: j) }
    return Reversal(step: i, best: first, options: options, later: j)
  }

  /// Puts each step's thread in `numbers`, numbered in the order threads first ran, and returns
  /// how many there are. `byTask` and `byActor` are room to work in, kept by the caller from run
  /// to run for their storage.
  func threadNumbers(into numbers: inout [Int], byTask: inout [Int], byActor: inout [Int]) -> Int {
    var count = 0
    // By task number and by actor index, the thread's number, or -1.
    byTask.removeAll(keepingCapacity: true)
    byActor.removeAll(keepingCapacity: true)
    var clockNumber = -1
    func number(_ slot: inout Int) -> Int {
      if slot < 0 {
        slot = count
        count += 1
      }
      return slot
    }
    func number(_ index: Int, in numbers: inout [Int]) -> Int {
      if index >= numbers.count { numbers.append(contentsOf: repeatElement(-1, count: index + 1 - numbers.count)) }
      return number(&numbers[index])
    }
    numbers.removeAll(keepingCapacity: true)
    for thread in threads {
      switch thread {
      case .task(let task): numbers.append(number(task.rawValue, in: &byTask))
      case .actor(let actor): numbers.append(number(actor, in: &byActor))
      case .clock: numbers.append(number(&clockNumber))
      case .unplaced:
        var own = -1
        numbers.append(number(&own))
      }
    }
    return count
  }
}

extension Array where Element == Int {
  /// The index of the first element, in this ascending array, for which `isAfter` holds, and
  /// holds for every one after it; `count` for none.
  func partitionPoint(where isAfter: (Int) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if isAfter(self[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
