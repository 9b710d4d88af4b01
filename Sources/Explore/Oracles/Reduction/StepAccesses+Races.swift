extension StepAccesses {
  /// A choice point where another option must be tried, because a race of the run could go the
  /// other way: the options that would start the other order, best first. Trying any one of them
  /// is enough.
  struct Reversal: Equatable {
    let step: Int
    let options: [Int]
    /// The race's later step.
    let later: Int
  }

  /// The choice points where the run's races could go the other way, as source-DPOR finds them.
  ///
  /// Step `i` happens before step `j` when `j` cannot run before `i`: they are steps of one
  /// thread, `i` made `j`'s job ready, they are dependent, or a chain of these links them. Two
  /// dependent steps of different threads race when nothing but their own dependence orders them
  /// (no step in between comes after `i` and before `j`) and `i` did not make `j`'s job ready.
  /// To reverse such a race, the search must try, at `i`'s choice point, a thread that can start
  /// the steps after `i` that do not depend on it, followed by `j`: one of their first steps.
  func reversals() -> [Reversal] {
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
    var lastOfThread = Array(repeating: -1, count: threadNumbers.count)
    var reversals: [Reversal] = []
    // Every step before the clock last moved on comes before every step since.
    var everyStep = Array(repeating: -1, count: threadNumbers.count)
    var beforeClock = everyStep
    var clockSteps = clockSteps[...]
    for j in 0..<steps {
      if clockSteps.first == j {
        clockSteps.removeFirst()
        beforeClock = everyStep
      }
      var predecessors: [Int] = []
      if lastOfThread[thread[j]] >= 0 { predecessors.append(lastOfThread[thread[j]]) }
      if let enabler = enabledBy[j] { predecessors.append(enabler) }
      var dependents: [Int] = []
      for i in 0..<j where thread[i] != thread[j] && i > beforeClock[thread[i]] && dependent(i, j) { dependents.append(i) }
      predecessors += dependents
      var clock = beforeClock
      for i in predecessors { join(&clock, clocks[i]) }
      clock[thread[j]] = j
      clocks.append(clock)
      join(&everyStep, clock)
      // The immediate predecessors, latest first: those no later predecessor already follows.
      var covered = beforeClock
      for i in Set(predecessors).sorted(by: >) {
        let immediate = i > covered[thread[i]]
        join(&covered, clocks[i])
        guard immediate, thread[i] != thread[j], enabledBy[j] != i else { continue }
        reversals.append(reversal(of: i, and: j, clocks: clocks, thread: thread))
      }
      lastOfThread[thread[j]] = j
    }
    return reversals
  }

  /// The options at `i`'s choice point that start the other order of the race between `i` and
  /// `j`: the first steps, among those after `i` that do not follow it, and `j`, that follow none
  /// of the others; `j`'s own first.
  private func reversal(of i: Int, and j: Int, clocks: [[Int]], thread: [Int]) -> Reversal {
    func happensBefore(_ a: Int, _ b: Int) -> Bool { clocks[b][thread[a]] >= a }
    let notAfter = (i + 1..<j).filter { !happensBefore(i, $0) } + [j]
    var options: [Int] = []
    for (index, step) in notAfter.enumerated() where !notAfter[..<index].contains(where: { happensBefore($0, step) }) {
      if let position = runsAt[i].firstIndex(of: step) { options.append(position) }
    }
    if let own = runsAt[i].firstIndex(of: j), let index = options.firstIndex(of: own) {
      options.swapAt(0, index)
    }
    // A first step whose job was not ready at `i` means the steps do not fit the model; every
    // option is then tried.
    return Reversal(step: i, options: options.isEmpty ? Array(runsAt[i].indices) : options, later: j)
  }

  private func join(_ clock: inout [Int], _ other: [Int]) {
    for index in clock.indices where other[index] > clock[index] { clock[index] = other[index] }
  }
}
