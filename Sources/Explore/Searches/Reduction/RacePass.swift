import EffectScheduler

/// The search for the races of each run, kept from one run to the next, so that a run that shares
/// its first steps with the run before is analysed from where they part.
///
/// Step `i` happens before step `j` when `j` cannot run before `i`: they are steps of one thread,
/// `i` made `j`'s job ready, they are dependent, or a chain of these links them. Two dependent
/// steps of different threads race when nothing but their own dependence orders them (no step in
/// between comes after `i` and before `j`) and `i` did not make `j`'s job ready. To reverse such
/// a race, the search must try, at `i`'s choice point, a thread that can start the steps after `i`
/// that do not depend on it, followed by `j`: one of their first steps (see
/// ``StepAccesses/reversal(of:and:order:)``). That is source-DPOR's race detection, with vector
/// clocks: each step's clock holds, for each thread, its last step that happens before it.
///
/// The pass goes through the steps in order, and what it knows before step `j` (the clocks so
/// far, the last step of each thread that touched each object) depends only on the steps before
/// `j`. A depth-first search's runs share their first steps with the run before, and so do their
/// facts, most often: the pass keeps a log of every value it overwrote, by step, and undoes the
/// steps from the first whose facts differ (``StepAccesses/firstDifference(from:upTo:)``) rather
/// than starting again. The races whose later step comes before that were found, and brought to
/// the choice points, for the run before.
///
/// The clocks' columns are chains of threads rather than threads (``ClockSlots``): where the
/// pass keeps something by thread, such as the last step of each that touched an object, it keeps
/// it by chain, the latest of the chain, which happens after the others.
struct RacePass {
  /// The facts of the run analysed last.
  private var last: StepAccesses?
  /// How many columns each clock and each row of last touches holds: at least as many as the runs
  /// analysed since the pass last started afresh.
  private var width = 0
  /// The columns of the run analysed, and of the run before, whose clocks the pass keeps up to
  /// the step from which it analyses the run.
  private var slots = ClockSlots()
  private var lastSlots: [Int] = []
  private var order = HappensBefore(thread: [], width: 0)
  /// The state of the pass, one cell an entry: the clocks and last touches of ``Region``, then,
  /// for each object numbered, the last step of each thread that touched it, a row of `width`.
  private var cells: [Int] = []
  /// Each value overwritten, with its cell, in order, and how long the log was before each step.
  private var undo: [(cell: Int, old: Int)] = []
  private var undoBefore: [Int] = []
  private var numbers = ObjectNumbers()
  /// How many objects were numbered before each step.
  private var numberedBefore: [Int] = []
  private var predecessors: [Int] = []
  private var clock: [Int] = []
  /// Room for numbering the threads (``StepAccesses/threadNumbers(into:byTask:byActor:)``).
  private var threadsByTask: [Int] = []
  private var threadsByActor: [Int] = []
  /// The reversals found last, kept for the storage of the list.
  private var found: [StepAccesses.Reversal] = []

  /// The regions of ``cells`` before the objects' rows, each one entry a thread.
  private enum Region: Int, CaseIterable {
    /// What every step comes after since the clock last moved on.
    case beforeClock
    /// What a timer fired early now would come after: the steps that affect it, and their past.
    case timerClock
    /// By thread: its last step, and its last that touched everything, fired a timer early, or
    /// affected one.
    case lastOfThread, lastEverything, lastFiring, lastAffecting
  }

  /// The most columns a run's clocks may take, and the most entries its rows may hold, for the
  /// pass to analyse it: a step costs as many entries as there are columns, and a step that
  /// touches everything up to their square. A run past either, thousands of tasks live at once,
  /// is not analysed (``races(of:sharing:)``).
  static let maxColumns = 512
  static let maxEntries = 8_000_000

  /// The races of the run whose facts are `accesses`, whose first `shared` steps are those of the
  /// run analysed last (the same choices from the same ready jobs): the reversals of the races
  /// whose later step is from `from` on, the first step whose facts differ from the last run's,
  /// and those that timers start, anywhere; and the order of all the run's steps. `nil`, the pass
  /// forgetting the run before, when the run is too wide to analyse (``maxColumns``,
  /// ``maxEntries``): the search then tries every option at each of its choice points, as for a
  /// run that does not fit the model, which keeps every schedule and a run's cost linear.
  mutating func races(of accesses: StepAccesses, sharing shared: Int) -> (reversals: [StepAccesses.Reversal], order: HappensBefore, from: Int)? {
    let steps = accesses.threads.count
    order.renumber { accesses.threadNumbers(into: &$0, byTask: &threadsByTask, byActor: &threadsByActor) }
    let thread = order.thread
    slots.assign(thread: thread, threadCount: order.threadCount, enabledBy: accesses.enabledBy)
    guard slots.count <= Self.maxColumns, max(width, slots.count) * steps <= Self.maxEntries else {
      reset()
      return nil
    }
    let slot = slots.slotOfStep
    order.setSlots(slot)
    var from = last.map { accesses.firstDifference(from: $0, upTo: min(shared, steps, $0.threads.count)) } ?? 0
    // A step whose thread's column changed is analysed afresh, as one whose facts did.
    from = (0..<min(from, lastSlots.count)).first { slot[$0] != lastSlots[$0] } ?? min(from, lastSlots.count)
    lastSlots.removeAll(keepingCapacity: true)
    lastSlots.append(contentsOf: slot)
    if slots.count > width {
      width = slots.count
      from = 0
    }
    rewind(to: from)
    last = accesses
    // The list returned for the run before, whose holders have let it go by now.
    var reversals = Array.takingStorage(of: &found)
    defer { found = reversals }
    var clockSteps = accesses.clockSteps.drop { $0 < from }
    clock.removeAll(keepingCapacity: true)
    clock.append(contentsOf: repeatElement(-1, count: width))
    let beforeClock = Region.beforeClock.rawValue * width
    for j in from..<steps {
      undoBefore.append(undo.count)
      numberedBefore.append(numbers.count)
      let clockMoved = clockSteps.first == j
      if clockMoved { clockSteps.removeFirst() }
      // A timer due at the instant the clock was at already, fired because no job was ready, could
      // have fired at any step since the clock got there, where it was offered: its move is no
      // barrier, and what every step comes after stays as the move to that instant left it. Its
      // task's step then races with the steps since that touch what it touches, and the reversal
      // fires the timer there (``StepAccesses/reversal(of:and:order:)``).
      if clockMoved, !accesses.sameInstantClockSteps.contains(j) {
        if accesses.movableClockSteps.contains(j) {
          for index in 0..<width { set(beforeClock + index, cells[Region.timerClock.rawValue * width + index]) }
        } else {
          // Every step so far: a thread's clocks only grow, so its last step's holds its others'.
          for index in 0..<width { clock[index] = cells[beforeClock + index] }
          clock.withUnsafeMutableBufferPointer { clock in
            for thread in 0..<width where cells[Region.lastOfThread.rawValue * width + thread] >= 0 {
              order.join(&clock, clockOf: cells[Region.lastOfThread.rawValue * width + thread])
            }
          }
          for index in 0..<width { set(beforeClock + index, clock[index]) }
        }
        for index in 0..<width { set(Region.timerClock.rawValue * width + index, cells[beforeClock + index]) }
      }
      let own = slot[j]
      predecessors.removeAll(keepingCapacity: true)
      let previous = cells[Region.lastOfThread.rawValue * width + own]
      if previous >= 0 { predecessors.append(previous) }
      if let enabler = accesses.enabledBy[j] { predecessors.append(enabler) }
      record(j, of: accesses, thread: own)
      for index in 0..<width { clock[index] = cells[beforeClock + index] }
      clock.withUnsafeMutableBufferPointer { clock in
        for i in predecessors { order.join(&clock, clockOf: i) }
      }
      clock[own] = j
      order.append(clock)
      if accesses.affectsTimer[j] || accesses.firesTimer[j] { join(.timerClock, clock) }
      // The immediate predecessors, latest first: those that neither what every step comes after
      // nor a later predecessor already follows.
      Self.sortDescending(&predecessors)
      for (index, i) in predecessors.enumerated() where index == 0 || predecessors[index - 1] != i {
        guard slot[i] != own, accesses.enabledBy[j] != i, i > cells[beforeClock + slot[i]] else { continue }
        guard !predecessors[..<index].contains(where: { $0 != i && order.precedes(i, $0) }) else { continue }
        reversals.append(accesses.reversal(of: i, and: j, order: order))
      }
    }
    reversals += accesses.timerReversals(thread: thread, order: order, previousOfThread: slots.previousOfThread)
    return (reversals, order, from)
  }

  /// Sorts `steps`, latest first, by insertion: a step has a few predecessors, for which the
  /// standard sort's set-up cost more than the sorting (an eighth of the race search).
  private static func sortDescending(_ steps: inout [Int]) {
    steps.withUnsafeMutableBufferPointer { steps in
      for index in steps.indices.dropFirst() {
        let step = steps[index]
        var slot = index
        while slot > 0, steps[slot - 1] < step {
          steps[slot] = steps[slot - 1]
          slot -= 1
        }
        steps[slot] = step
      }
    }
  }

  /// The facts of the run analysed last, unless forgotten.
  var lastAccesses: StepAccesses? { last }

  /// Forgets the run analysed last, as after a run that did not fit the model.
  mutating func forget() { last = nil }

  /// How many entries the pass keeps room for: its cells, its log and the order's rows.
  var storedEntries: Int { cells.capacity + undo.capacity * 2 + order.storedEntries }

  /// Forgets every run analysed, keeping the storage, for another search.
  mutating func reset() {
    last = nil
    // A wider search before would widen every row of the next one.
    width = 0
    lastSlots.removeAll(keepingCapacity: true)
    rewind(to: 0)
  }

  /// Undoes the steps from `step` on, or starts afresh at 0.
  private mutating func rewind(to step: Int) {
    guard step > 0 else {
      cells.removeAll(keepingCapacity: true)
      cells.append(contentsOf: repeatElement(-1, count: Region.allCases.count * width))
      undo.removeAll(keepingCapacity: true)
      undoBefore.removeAll(keepingCapacity: true)
      numberedBefore.removeAll(keepingCapacity: true)
      numbers.forget(downTo: 0)
      order.reset(width: width)
      return
    }
    while undo.count > undoBefore[step] {
      let (cell, old) = undo.removeLast()
      cells[cell] = old
    }
    numbers.forget(downTo: numberedBefore[step])
    cells.removeLast(cells.count - (Region.allCases.count + numbers.count) * width)
    undoBefore.removeLast(undoBefore.count - step)
    numberedBefore.removeLast(numberedBefore.count - step)
    order.truncate(to: step)
  }

  /// Writes `value` to `cell`, keeping what it overwrote.
  private mutating func set(_ cell: Int, _ value: Int) {
    let old = cells[cell]
    guard old != value else { return }
    undo.append((cell, old))
    cells[cell] = value
  }

  /// Raises each entry of `region` to `clock`'s, where that is later.
  private mutating func join(_ region: Region, _ clock: [Int]) {
    let base = region.rawValue * width
    for index in 0..<width where clock[index] > cells[base + index] { set(base + index, clock[index]) }
  }

  /// Notes what step `j`, of column `own`, touched, and adds to ``predecessors`` the last step of
  /// each other thread that it depends on, for each reason it may, as they were before it,
  /// leaving out those that come before the clock last moved on anyway. An earlier step of the
  /// same thread comes before the last one anyway.
  private mutating func record(_ j: Int, of accesses: StepAccesses, thread own: Int) {
    let floor = Region.beforeClock.rawValue * width
    func add(_ region: Region) {
      let base = region.rawValue * width
      for other in 0..<width where other != own && cells[base + other] > cells[floor + other] { predecessors.append(cells[base + other]) }
    }
    let touchesEverything = accesses.touchesEverything[j]
    if touchesEverything {
      add(.lastOfThread)
    } else {
      add(.lastEverything)
      if accesses.firesEarlyTimer[j] { add(.lastAffecting) }
      if accesses.affectsTimer[j] { add(.lastFiring) }
    }
    set(Region.lastOfThread.rawValue * width + own, j)
    if touchesEverything { set(Region.lastEverything.rawValue * width + own, j) }
    if accesses.firesEarlyTimer[j] { set(Region.lastFiring.rawValue * width + own, j) }
    if accesses.affectsTimer[j] { set(Region.lastAffecting.rawValue * width + own, j) }
    // Each object is looked up once: its last touches are read, then this step becomes its last.
    for object in accesses.objects[j] {
      let (number, isNew) = numbers.number(of: object)
      let row = (Region.allCases.count + number) * width
      if isNew {
        cells.append(contentsOf: repeatElement(-1, count: width))
      } else if !touchesEverything {
        for other in 0..<width where other != own && cells[row + other] > cells[floor + other] { predecessors.append(cells[row + other]) }
      }
      set(row + own, j)
    }
    // A word read comes after its last writes; a word written, after its last touches of any kind.
    for touch in accesses.memory.touches(ofStep: j) where touch.word != MemoryTouch.everyWord {
      let written = row(of: .wordWritten(touch.word))
      let touched = row(of: .wordTouched(touch.word))
      if !touchesEverything {
        let earlier = touch.writes ? touched : written
        for other in 0..<width where other != own && cells[earlier + other] > cells[floor + other] { predecessors.append(cells[earlier + other]) }
      }
      set(touched + own, j)
      if touch.writes { set(written + own, j) }
    }
  }

  /// The first cell of `object`'s row, made on first sight.
  private mutating func row(of object: StepAccesses.Object) -> Int {
    let (number, isNew) = numbers.number(of: object)
    if isNew { cells.append(contentsOf: repeatElement(-1, count: width)) }
    return (Region.allCases.count + number) * width
  }
}
