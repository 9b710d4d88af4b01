/// A set of a run's tasks that empties in constant time: a mark a task, by its number, stamped
/// with the set's current generation. For sets filled and emptied many times a step, such as the
/// tasks an actor's queue lists (``DeterministicScheduler/queuedTasks(onActorAt:besides:)``),
/// where a `Set` was rebuilt, hashing each task, at every read.
struct TaskMarks {
  private var stamps: [UInt32] = []
  private var generation: UInt32 = 1

  /// Empties the set.
  mutating func removeAll() {
    generation &+= 1
    guard generation == 0 else { return }
    // After four billion emptyings, the stamps start again.
    for index in stamps.indices { stamps[index] = 0 }
    generation = 1
  }

  /// Whether `task` is in the set.
  func contains(_ task: TaskID) -> Bool {
    stamps.indices.contains(task.rawValue) && stamps[task.rawValue] == generation
  }

  /// Takes `task` out of the set.
  mutating func remove(_ task: TaskID) {
    if stamps.indices.contains(task.rawValue) { stamps[task.rawValue] = 0 }
  }

  /// Adds `task`; returns whether it was not in the set.
  mutating func insert(_ task: TaskID) -> Bool {
    let index = task.rawValue
    precondition(index >= 0, "a task numbered \(index)")
    if index >= stamps.count { stamps.append(contentsOf: repeatElement(0, count: index + 1 - stamps.count)) }
    guard stamps[index] != generation else { return false }
    stamps[index] = generation
    return true
  }
}
