import EffectScheduler

/// The jobs ready at a PCT search's step (``PCTSearch``), kept from step to step by priority, so
/// that finding the one to run costs a logarithm of how many are ready, not a look at each.
///
/// Each job added takes a slot, numbered in the order added, which stays its own until it runs: the
/// ready jobs are the slots still filled, in the order of their numbers, as the scheduler lists
/// them (``StrategyReference/nextJob``). A heap orders the slots by their job's priority, the
/// earliest first among equals, as a look through the list in order would; an entry whose job ran,
/// or whose task's priority changed since, is dropped when it comes up. A tree of counts (a
/// Fenwick tree) gives a slot's position among those filled.
struct ReadyPriorities {
  /// Each slot's task, `nil` for a job no task is named for, which goes first.
  private var owners: [TaskID?] = []
  private var filled: [Bool] = []
  /// Counts of filled slots, a Fenwick tree over the slots, numbered from 1.
  private var counts: [Int] = [0]
  private var heap = BinaryHeap<ByPriority>()
  /// The slots of each task, by its number, some of them emptied since; and the tasks whose
  /// list is not empty, so that emptying every slot costs what was added, not a look at every
  /// task: a run scheduled fairly (``SchedulerConfiguration/stepsBeforeFairness``) lists its
  /// ready jobs again at every step.
  private var slotsOfTask: [[Int]] = []
  private var tasksWithSlots: [Int] = []
  /// How many slots are filled: the jobs ready.
  private(set) var count = 0

  /// Empties every slot, for a new run or a list the scheduler said nothing of.
  mutating func removeAll() {
    owners.removeAll(keepingCapacity: true)
    filled.removeAll(keepingCapacity: true)
    counts.removeAll(keepingCapacity: true)
    counts.append(0)
    heap.removeAll()
    for task in tasksWithSlots { slotsOfTask[task].removeAll(keepingCapacity: true) }
    tasksWithSlots.removeAll(keepingCapacity: true)
    count = 0
  }

  /// Adds a job of `owner`'s, whose priority is `priority`, after those ready.
  mutating func add(owner: TaskID?, priority: UInt64) {
    let slot = owners.count
    owners.append(owner)
    filled.append(true)
    if counts.count <= slot + 1 { growCounts() } else { addCount(1, at: slot) }
    count += 1
    if let owner {
      if owner.rawValue >= slotsOfTask.count { slotsOfTask.append(contentsOf: repeatElement([], count: owner.rawValue + 1 - slotsOfTask.count)) }
      if slotsOfTask[owner.rawValue].isEmpty { tasksWithSlots.append(owner.rawValue) }
      slotsOfTask[owner.rawValue].append(slot)
    }
    push(priority, slot)
  }

  /// The ready job with the highest priority, the earliest among equals, with its position among
  /// those ready and its priority; `priority` gives a task's priority now (`nil` for no task).
  mutating func best(priority: (TaskID?) -> UInt64) -> (position: Int, slot: Int, priority: UInt64)? {
    while let top = heap.first {
      guard filled[top.slot], priority(owners[top.slot]) == top.priority else {
        heap.removeFirst()
        continue
      }
      return (countBefore(top.slot), top.slot, top.priority)
    }
    return nil
  }

  /// Empties `slot`, whose job runs.
  mutating func remove(slot: Int) {
    guard filled[slot] else { return }
    filled[slot] = false
    addCount(-1, at: slot)
    count -= 1
  }

  /// Orders the ready jobs of `task` by its new priority, `priority`.
  mutating func reprioritize(_ task: TaskID, to priority: UInt64) {
    guard slotsOfTask.indices.contains(task.rawValue) else { return }
    let filled = filled
    slotsOfTask[task.rawValue].removeAll { !filled[$0] }
    for slot in slotsOfTask[task.rawValue] { push(priority, slot) }
  }

  /// The heap's order: the highest priority first, the earliest slot among equals.
  enum ByPriority: HeapOrder {
    static func precedes(_ a: (priority: UInt64, slot: Int), _ b: (priority: UInt64, slot: Int)) -> Bool {
      a.priority != b.priority ? a.priority > b.priority : a.slot < b.slot
    }
  }

  private mutating func push(_ priority: UInt64, _ slot: Int) {
    heap.insert((priority, slot))
  }

  // The counts: `counts[i]` holds the filled slots among the `i & -i` up to slot `i - 1`.

  private mutating func addCount(_ delta: Int, at slot: Int) {
    var index = slot + 1
    while index < counts.count {
      counts[index] += delta
      index += index & -index
    }
  }

  /// How many slots before `slot` are filled.
  private func countBefore(_ slot: Int) -> Int {
    var index = slot
    var total = 0
    while index > 0 {
      total += counts[index]
      index -= index & -index
    }
    return total
  }

  /// Makes room for twice as many slots, counting the filled ones again.
  private mutating func growCounts() {
    let size = max(16, 2 * counts.count)
    counts.removeAll(keepingCapacity: true)
    counts.append(contentsOf: repeatElement(0, count: size))
    for slot in filled.indices where filled[slot] {
      var index = slot + 1
      while index < size {
        counts[index] += 1
        index += index & -index
      }
    }
  }
}
