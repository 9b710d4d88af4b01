/// The columns of a run's vector clocks (``HappensBefore``), one a chain of threads rather than
/// one a thread: a thread whose every step happens after every step of a thread that has ended
/// takes the ended thread's column. A clock's entry for a column is then the latest step of the
/// chain that happens before, and still says of any step of the chain whether it does, for the
/// chain's steps are ordered. A run that starts and awaits thousands of short-lived tasks, one
/// after another, so needs a few columns, not one a task: its clocks, and the race search's rows
/// (``RacePass``), grow with its steps alone.
///
/// A thread's last step in the run hands its column, and those handed to it, to the thread of the
/// first step it made ready, at that step: that thread's steps from there on follow it. A new
/// thread whose first step was made ready by a step of a thread holding such columns takes one
/// handed at or before that step. A thread keeps a few columns; the others are let go, which only
/// widens the clocks.
struct ClockSlots {
  /// For each step, the column of its thread.
  private(set) var slotOfStep: [Int] = []
  /// How many columns the run's steps take.
  private(set) var count = 0
  /// For each step, the step of its thread before it, or -1.
  private(set) var previousOfThread: [Int] = []

  /// By thread: its column, or -1 before its first step; its last step.
  private var slotOfThread: [Int] = []
  private var lastOfThread: [Int] = []
  /// For each step, the first later step it made ready, or -1.
  private var firstMadeReady: [Int] = []
  /// By thread, ``kept`` entries each: the columns handed to it, latest on top, each with the step
  /// of the thread from which on it may take it; and how many it holds.
  private var handed: [(slot: Int, from: Int)] = []
  private var handedCount: [Int] = []
  private static let kept = 4

  /// Gives each step of a run a column: `thread` numbers each step's thread, `threadCount` of them,
  /// and `enabledBy` gives the step that made each step's job ready.
  mutating func assign(thread: [Int], threadCount: Int, enabledBy: [Int?]) {
    let steps = thread.count
    reset(threads: threadCount, steps: steps)
    for step in 0..<steps {
      let own = thread[step]
      previousOfThread.append(lastOfThread[own])
      lastOfThread[own] = step
      if let enabler = enabledBy[step], firstMadeReady[enabler] < 0 { firstMadeReady[enabler] = step }
    }
    for step in 0..<steps {
      let own = thread[step]
      if slotOfThread[own] < 0 { slotOfThread[own] = enabledBy[step].flatMap { take(from: thread[$0], atStep: $0) } ?? newSlot() }
      slotOfStep.append(slotOfThread[own])
      guard step == lastOfThread[own], case let next = firstMadeReady[step], next >= 0 else { continue }
      let heir = thread[next]
      for index in 0..<handedCount[own] { hand(handed[own * Self.kept + index].slot, to: heir, from: next) }
      hand(slotOfThread[own], to: heir, from: next)
    }
  }

  private mutating func reset(threads: Int, steps: Int) {
    count = 0
    slotOfStep.removeAll(keepingCapacity: true)
    previousOfThread.removeAll(keepingCapacity: true)
    slotOfThread.removeAll(keepingCapacity: true)
    slotOfThread.append(contentsOf: repeatElement(-1, count: threads))
    lastOfThread.removeAll(keepingCapacity: true)
    lastOfThread.append(contentsOf: repeatElement(-1, count: threads))
    firstMadeReady.removeAll(keepingCapacity: true)
    firstMadeReady.append(contentsOf: repeatElement(-1, count: steps))
    handed.removeAll(keepingCapacity: true)
    handed.append(contentsOf: repeatElement((slot: -1, from: -1), count: threads * Self.kept))
    handedCount.removeAll(keepingCapacity: true)
    handedCount.append(contentsOf: repeatElement(0, count: threads))
  }

  private mutating func newSlot() -> Int {
    count += 1
    return count - 1
  }

  /// Puts `slot` on top of the columns handed to `thread`, for its steps from `step` on, letting
  /// the oldest go when it holds as many as it keeps.
  private mutating func hand(_ slot: Int, to thread: Int, from step: Int) {
    let base = thread * Self.kept
    if handedCount[thread] == Self.kept {
      for index in 1..<Self.kept { handed[base + index - 1] = handed[base + index] }
      handedCount[thread] -= 1
    }
    handed[base + handedCount[thread]] = (slot, step)
    handedCount[thread] += 1
  }

  /// The latest column handed to `thread` that its step `step` may take, taken off its list.
  private mutating func take(from thread: Int, atStep step: Int) -> Int? {
    let base = thread * Self.kept
    var index = handedCount[thread] - 1
    while index >= 0, handed[base + index].from > step { index -= 1 }
    guard index >= 0 else { return nil }
    let slot = handed[base + index].slot
    for later in index..<(handedCount[thread] - 1) { handed[base + later] = handed[base + later + 1] }
    handedCount[thread] -= 1
    return slot
  }
}
