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
    var threadNumbers: [Thread: Int] = [:]
    let thread = threads.map { thread in
      if let number = threadNumbers[thread] { return number }
      threadNumbers[thread] = threadNumbers.count
      return threadNumbers.count - 1
    }
    // For each step, the last step of each thread that happens before it, or -1.
    var clocks: [[Int]] = []
    clocks.reserveCapacity(steps)
    var reversals: [Reversal] = []
    // Every step before the clock last moved on comes before every step since.
    var everyStep = Array(repeating: -1, count: threadNumbers.count)
    var beforeClock = everyStep
    // What a timer fired early now would come after: the steps that affect it, and their past.
    var timerClock = beforeClock
    var clockSteps = clockSteps[...]
    var touches = LastTouches(threads: threadNumbers.count)
    for j in 0..<steps {
      if clockSteps.first == j {
        clockSteps.removeFirst()
        beforeClock = movableClockSteps.contains(j) ? timerClock : everyStep
        timerClock = beforeClock
      }
      var predecessors: [Int] = []
      if touches.lastOfThread[thread[j]] >= 0 { predecessors.append(touches.lastOfThread[thread[j]]) }
      if let enabler = enabledBy[j] { predecessors.append(enabler) }
      for i in touches.record(j, in: self, thread: thread) where i > beforeClock[thread[i]] { predecessors.append(i) }
      var clock = beforeClock
      for i in predecessors { join(&clock, clocks[i]) }
      clock[thread[j]] = j
      clocks.append(clock)
      join(&everyStep, clock)
      if affectsTimer[j] || firesTimer[j] { join(&timerClock, clock) }
      // The immediate predecessors, latest first: those no later predecessor already follows.
      var covered = beforeClock
      predecessors.sort(by: >)
      for (index, i) in predecessors.enumerated() where index == 0 || predecessors[index - 1] != i {
        let immediate = i > covered[thread[i]]
        join(&covered, clocks[i])
        guard immediate, thread[i] != thread[j], enabledBy[j] != i else { continue }
        reversals.append(reversal(of: i, and: j, clocks: clocks, thread: thread))
      }
    }
    // A timer pending at a step that affects it could have fired before it.
    for step in 0..<steps where affectsTimer[step] && !firesTimer[step] {
      if let timer = timerPositions[step] { reversals.append(Reversal(step: step, options: [timer], later: step)) }
    }
    return (reversals, HappensBefore(thread: thread, clocks: clocks))
  }

  /// The options at `i`'s choice point that start the other order of the race between `i` and
  /// `j`: the first steps, among those after `i` that do not follow it, and `j`, that follow none
  /// of the others; `j`'s own first.
  private func reversal(of i: Int, and j: Int, clocks: [[Int]], thread: [Int]) -> Reversal {
    let order = HappensBefore(thread: thread, clocks: clocks)
    func happensBefore(_ a: Int, _ b: Int) -> Bool { order.precedes(a, b) }
    let notAfter = (i + 1..<j).filter { !happensBefore(i, $0) } + [j]
    var options: [Int] = []
    // The option at `i` that starts `step`: its job, or the timer that fired it or woke its task.
    func option(starting step: Int) -> Int? {
      if let position = runsAt[i].firstIndex(of: step) { return position }
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
    if options.isEmpty { return Reversal(step: i, options: Array(runsAt[i].indices) + (timerPositions[i].map { [$0] } ?? []), later: j, everyOption: true) }
    return Reversal(step: i, options: options, later: j)
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
  /// For each step, the last step of each thread that happens before it, or -1.
  let clocks: [[Int]]

  /// Whether step `a` happens before step `b`, or is `b`.
  func precedes(_ a: Int, _ b: Int) -> Bool { clocks[b][thread[a]] >= a }
}

/// For each thing steps touch, the last step of each thread that touched it, so that the steps a
/// step depends on (the pairs ``StepFootprint/conflicts(with:)`` names) are found without
/// comparing it with every step before: an earlier step of the same thread comes before the last
/// one anyway.
private struct LastTouches {
  private let threads: Int
  private var numbers: [StepAccesses.Object: Int] = [:]
  /// By object number, then thread: the last step, or -1.
  private var last: [[Int]] = []
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

  /// Notes what step `j` touched, and returns the last step of each other thread that it depends
  /// on, for each reason it may, as they were before it.
  mutating func record(_ j: Int, in accesses: StepAccesses, thread: [Int]) -> [Int] {
    var found: [Int] = []
    let own = thread[j]
    func add(_ steps: [Int]) {
      for other in 0..<threads where other != own && steps[other] >= 0 { found.append(steps[other]) }
    }
    if accesses.touchesEverything[j] {
      add(lastOfThread)
    } else {
      add(lastEverything)
      if accesses.firesTimer[j] { add(lastAffecting) }
      if accesses.affectsTimer[j] { add(lastFiring) }
    }
    lastOfThread[own] = j
    if accesses.touchesEverything[j] { lastEverything[own] = j }
    if accesses.firesTimer[j] { lastFiring[own] = j }
    if accesses.affectsTimer[j] { lastAffecting[own] = j }
    // Each object is looked up once: its last touches are read, then this step becomes its last.
    for object in accesses.objects[j] {
      guard let number = numbers[object] else {
        numbers[object] = last.count
        var touches = Array(repeating: -1, count: threads)
        touches[own] = j
        last.append(touches)
        continue
      }
      if !accesses.touchesEverything[j] { add(last[number]) }
      last[number][own] = j
    }
    return found
  }
}
