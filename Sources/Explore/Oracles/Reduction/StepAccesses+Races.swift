extension StepAccesses {
  /// A choice point where another option must be tried, because a race of the run could go the
  /// other way: the options that would start the other order, best first. Trying any one of them
  /// is enough.
  struct Reversal: Equatable {
    let step: Int
    let options: [Int]
    /// The race's later step.
    let later: Int
    /// Whether every one of the options must be tried, where the race does not fit the model.
    var everyOption = false
  }

  /// The choice points where the run's races could go the other way, as source-DPOR finds them.
  ///
  /// Step `i` happens before step `j` when `j` cannot run before `i`: they are steps of one
  /// thread, `i` made `j`'s job ready, they are dependent, or a chain of these links them. Two
  /// dependent steps of different threads race when nothing but their own dependence orders them
  /// (no step in between comes after `i` and before `j`) and `i` did not make `j`'s job ready.
  /// To reverse such a race, the search must try, at `i`'s choice point, a thread that can start
  /// the steps after `i` that do not depend on it, followed by `j`: one of their first steps.
  ///
  /// Returns the reversals, and the order of the run's steps they were found from.
  func reversals() -> (reversals: [Reversal], order: HappensBefore) {
    let steps = threads.count
    let (thread, threadCount) = threadNumbers()
    // For each step, the last step of each thread that happens before it, or -1.
    var order = HappensBefore(thread: thread, threads: threadCount)
    var reversals: [Reversal] = []
    // Every step before the clock last moved on comes before every step since.
    var everyStep = Array(repeating: -1, count: threadCount)
    var beforeClock = everyStep
    // What a timer fired early now would come after: the steps that affect it, and their past.
    var timerClock = beforeClock
    var clockSteps = clockSteps[...]
    var touches = LastTouches(threads: threadCount)
    var predecessors: [Int] = []
    // For each step, the step of its thread before it, or -1.
    var previousOfThread = Array(repeating: -1, count: steps)
    var clock = everyStep
    var covered = everyStep
    for j in 0..<steps {
      if clockSteps.first == j {
        clockSteps.removeFirst()
        beforeClock = movableClockSteps.contains(j) ? timerClock : everyStep
        timerClock = beforeClock
      }
      predecessors.removeAll(keepingCapacity: true)
      previousOfThread[j] = touches.lastOfThread[thread[j]]
      if touches.lastOfThread[thread[j]] >= 0 { predecessors.append(touches.lastOfThread[thread[j]]) }
      if let enabler = enabledBy[j] { predecessors.append(enabler) }
      touches.record(j, in: self, thread: thread, into: &predecessors, after: beforeClock)
      clock.withUnsafeMutableBufferPointer { clock in
        for index in clock.indices { clock[index] = beforeClock[index] }
        for i in predecessors { order.join(&clock, clockOf: i) }
        clock[thread[j]] = j
      }
      order.append(clock)
      join(&everyStep, clock)
      if affectsTimer[j] || firesTimer[j] { join(&timerClock, clock) }
      // The immediate predecessors, latest first: those no later predecessor already follows.
      for index in covered.indices { covered[index] = beforeClock[index] }
      predecessors.sort(by: >)
      for (index, i) in predecessors.enumerated() where index == 0 || predecessors[index - 1] != i {
        let immediate = i > covered[thread[i]]
        covered.withUnsafeMutableBufferPointer { order.join(&$0, clockOf: i) }
        guard immediate, thread[i] != thread[j], enabledBy[j] != i else { continue }
        reversals.append(reversal(of: i, and: j, order: order))
      }
    }
    // A timer pending at a step that affects it could have fired before it: one fired early, any
    // step that affects a timer; one due already (the first of those due then), a step that
    // touches the task of any timer due then, or the timers due at that instant.
    for step in 0..<steps where !firesTimer[step] {
      guard let timer = timerPositions[step] else { continue }
      let affected =
        if let due = dueTimerOffers[step] {
          due.contains { objects[step].contains(.timersDue(at: $0.deadline)) || $0.owner.map { objects[step].contains(.task($0)) } ?? true }
        } else {
          affectsTimer[step]
        }
      if affected { reversals.append(Reversal(step: step, options: [timer], later: step)) }
    }
    // A timer that the clock's move fired, while the run could still fire one early, could have
    // fired before a step that affects it and came before the sleep that set it, had the sleep
    // begun first: the step and the sleep's beginning race, as a timer fired early races with the
    // steps that affect it. (Once the sleep has begun, the rule above tries firing it.)
    for woken in 0..<steps {
      guard let move = enabledByClock[woken], movableClockSteps.contains(move), !sameInstantClockSteps.contains(move) else { continue }
      let sleep = previousOfThread[woken]
      guard sleep >= 0 else { continue }
      for step in 0..<sleep where affectsTimer[step] && !firesTimer[step] && thread[step] != thread[sleep] && !order.precedes(step, sleep) {
        reversals.append(reversal(of: step, and: sleep, order: order))
      }
    }
    return (reversals, order)
  }

  /// The options at `i`'s choice point that start the other order of the race between `i` and
  /// `j`: the first steps, among those after `i` that do not follow it, and `j`, that follow none
  /// of the others; `j`'s own first.
  private func reversal(of i: Int, and j: Int, order: HappensBefore) -> Reversal {
    func happensBefore(_ a: Int, _ b: Int) -> Bool { order.precedes(a, b) }
    let notAfter = (i + 1..<j).filter { !happensBefore(i, $0) } + [j]
    var options: [Int] = []
    // The option at `i` that starts `step`: its job, or the timer that fired it or woke its task.
    func option(starting step: Int) -> Int? {
      if let position = position(atStep: i, ofJobRunAt: step) { return position }
      if firesTimer[step] || enabledByClock[step].map(movableClockSteps.contains) == true { return timerPositions[i] }
      return nil
    }
    for (index, step) in notAfter.enumerated() where !notAfter[..<index].contains(where: { happensBefore($0, step) }) {
      if let position = option(starting: step), !options.contains(position) { options.append(position) }
    }
    if let own = option(starting: j), let index = options.firstIndex(of: own) {
      options.swapAt(0, index)
    }
    // A first step whose job was not ready at `i` means the steps do not fit the model; every
    // option is then tried.
    if options.isEmpty { return Reversal(step: i, options: Array(0..<jobCount(atStep: i)) + (timerPositions[i].map { [$0] } ?? []), later: j, everyOption: true) }
    return Reversal(step: i, options: options, later: j)
  }

  /// Each step's thread, numbered in the order threads first ran, and how many there are.
  private func threadNumbers() -> (numbers: [Int], count: Int) {
    var count = 0
    // By task number and by actor index, the thread's number, or -1.
    var taskNumbers: [Int] = []
    var actorNumbers: [Int] = []
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
    let numbers = threads.map { thread in
      switch thread {
      case .task(let task): return number(task.rawValue, in: &taskNumbers)
      case .actor(let actor): return number(actor, in: &actorNumbers)
      case .clock: return number(&clockNumber)
      case .unplaced:
        var own = -1
        return number(&own)
      }
    }
    return (numbers, count)
  }

  private func join(_ clock: inout [Int], _ other: [Int]) {
    for index in clock.indices where other[index] > clock[index] { clock[index] = other[index] }
  }
}

/// The order of a run's steps that every equivalent schedule keeps: step `a` happens before step
/// `b` when `b` cannot run before `a` (see ``StepAccesses/reversals()``).
struct HappensBefore {
  /// Each step's thread, numbered in the order threads first ran.
  let thread: [Int]
  /// How many threads there are.
  let threads: Int
  /// For each step in turn, the last step of each thread that happens before it, or -1: one
  /// row of `threads` entries a step.
  private var clocks: [Int] = []

  init(thread: [Int], threads: Int) {
    self.thread = thread
    self.threads = threads
    clocks.reserveCapacity(thread.count * threads)
  }

  /// Adds the next step's row.
  mutating func append(_ clock: [Int]) { clocks.append(contentsOf: clock) }

  /// Raises each entry of `clock` to step `step`'s, where that is later.
  func join(_ clock: inout UnsafeMutableBufferPointer<Int>, clockOf step: Int) {
    // Through a buffer, so that an unoptimized build neither retains the rows nor checks each
    // index: a run of thousands of steps and hundreds of tasks joins millions of entries.
    clocks.withUnsafeBufferPointer { clocks in
      let row = UnsafeBufferPointer(rebasing: clocks[step * threads..<(step + 1) * threads])
      for index in row.indices where row[index] > clock[index] { clock[index] = row[index] }
    }
  }

  /// Whether step `a` happens before step `b`, or is `b`.
  func precedes(_ a: Int, _ b: Int) -> Bool { clocks[b * threads + thread[a]] >= a }
}

/// For each thing steps touch, the last step of each thread that touched it, so that the steps a
/// step depends on (the pairs ``StepFootprint/conflicts(with:)`` names) are found without
/// comparing it with every step before: an earlier step of the same thread comes before the last
/// one anyway.
private struct LastTouches {
  private let threads: Int
  private var numbers = ObjectNumbers()
  /// By object number, then thread: the last step, or -1, a row of `threads` entries an object.
  private var last: [Int] = []
  /// By thread: the last step that touched everything, fired a timer, or affected one.
  private var lastEverything: [Int]
  private var lastFiring: [Int]
  private var lastAffecting: [Int]
  /// By thread: its last step so far.
  private(set) var lastOfThread: [Int]

  init(threads: Int) {
    self.threads = threads
    lastEverything = Array(repeating: -1, count: threads)
    lastFiring = lastEverything
    lastAffecting = lastEverything
    lastOfThread = lastEverything
  }

  /// Notes what step `j` touched, and adds to `found` the last step of each other thread that it
  /// depends on, for each reason it may, as they were before it, leaving out those no later than
  /// `floor`'s entry for their thread.
  mutating func record(_ j: Int, in accesses: StepAccesses, thread: [Int], into found: inout [Int], after floor: [Int]) {
    let own = thread[j]
    func add(_ steps: [Int]) {
      for other in 0..<threads where other != own && steps[other] > floor[other] { found.append(steps[other]) }
    }
    if accesses.touchesEverything[j] {
      add(lastOfThread)
    } else {
      add(lastEverything)
      if accesses.firesEarlyTimer[j] { add(lastAffecting) }
      if accesses.affectsTimer[j] { add(lastFiring) }
    }
    lastOfThread[own] = j
    if accesses.touchesEverything[j] { lastEverything[own] = j }
    if accesses.firesEarlyTimer[j] { lastFiring[own] = j }
    if accesses.affectsTimer[j] { lastAffecting[own] = j }
    // Each object is looked up once: its last touches are read, then this step becomes its last.
    for object in accesses.objects[j] {
      let number = numbers.number(of: object)
      if number * threads == last.count {
        last.append(contentsOf: repeatElement(-1, count: threads))
      } else if !accesses.touchesEverything[j] {
        for other in 0..<threads where other != own && last[number * threads + other] > floor[other] {
          found.append(last[number * threads + other])
        }
      }
      last[number * threads + own] = j
    }
  }
}

/// Numbers the objects of one run's steps in the order they first appear, without hashing: each
/// kind of ``StepAccesses/Object`` keeps its numbers in an array by the object's own index.
private struct ObjectNumbers {
  /// By kind, then the object's index within its kind: its number, or -1.
  private var byKind: [[Int]] = Array(repeating: [], count: 10)
  /// The numbers of the instants timers are due at, which are no small indices.
  private var byInstant: [Int: Int] = [:]
  private var count = 0

  /// The number of `object`, the next one when it is new.
  mutating func number(of object: StepAccesses.Object) -> Int {
    let (kind, index) = (Int(object.kind.rawValue), object.index)
    if object.kind == .timersDue {
      if let number = byInstant[index] { return number }
      byInstant[index] = count
      count += 1
      return count - 1
    }
    if index >= byKind[kind].count { byKind[kind].append(contentsOf: repeatElement(-1, count: index + 1 - byKind[kind].count)) }
    if byKind[kind][index] < 0 {
      byKind[kind][index] = count
      count += 1
    }
    return byKind[kind][index]
  }
}
