/// The order of a run's steps that every equivalent schedule keeps: step `a` happens before step
/// `b` when `b` cannot run before `a` (see ``RacePass``).
struct HappensBefore {
  /// Each step's thread, numbered in the order threads first ran.
  private(set) var thread: [Int]
  /// How many threads the steps ran.
  private(set) var threadCount = 0
  /// Each step's column in the clocks: its thread's chain (see ``ClockSlots``).
  private(set) var slot: [Int] = []
  /// How many entries each step's row holds: at least one a column.
  private(set) var width: Int
  /// For each step in turn, the last step of each column that happens before it, or -1: one
  /// row of `width` entries a step.
  private var clocks: [Int] = []

  init(thread: [Int], width: Int) {
    self.thread = thread
    self.width = width
  }

  /// Empties the order, keeping its storage, for steps with rows of `width` entries; the steps'
  /// threads are numbered again for each run (``renumber(_:)``).
  mutating func reset(width: Int) {
    clocks.removeAll(keepingCapacity: true)
    self.width = width
  }

  /// Lets `number` put the steps' threads in ``thread``, and say how many there are: those of a
  /// run whose rows so far are the same.
  mutating func renumber(_ number: (inout [Int]) -> Int) { threadCount = number(&thread) }

  /// Takes each step's column in the clocks.
  mutating func setSlots(_ slots: [Int]) {
    slot.removeAll(keepingCapacity: true)
    slot.append(contentsOf: slots)
  }

  /// Adds the next step's row.
  mutating func append(_ clock: [Int]) { clocks.append(contentsOf: clock) }

  /// How many entries the rows keep room for.
  var storedEntries: Int { clocks.capacity }

  /// Keeps the rows of the first `steps` steps only.
  mutating func truncate(to steps: Int) { clocks.removeLast(clocks.count - steps * width) }

  /// Raises each entry of `clock` to step `step`'s, where that is later.
  func join(_ clock: inout UnsafeMutableBufferPointer<Int>, clockOf step: Int) {
    // Through a buffer, so that an unoptimized build neither retains the rows nor checks each
    // index: a run of thousands of steps and hundreds of tasks joins millions of entries.
    clocks.withUnsafeBufferPointer { clocks in
      let row = UnsafeBufferPointer(rebasing: clocks[step * width..<(step + 1) * width])
      for index in row.indices where row[index] > clock[index] { clock[index] = row[index] }
    }
  }

  /// The last step of `column` that happens before step `step`, or is it; -1 for none.
  func latest(ofColumn column: Int, before step: Int) -> Int { clocks[step * width + column] }

  /// The steps of each column, in order.
  func stepsOfColumn() -> [[Int]] {
    var steps = Array(repeating: [Int](), count: width)
    for (step, column) in slot.enumerated() { steps[column].append(step) }
    return steps
  }

  /// Whether step `a` happens before step `b`, or is `b`.
  func precedes(_ a: Int, _ b: Int) -> Bool { clocks[b * width + slot[a]] >= a }
}
