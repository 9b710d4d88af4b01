import EffectScheduler

/// Flags by task number that grow as tasks are met: a set of tasks without hashing.
struct TaskFlags {
  private var flags: [Bool] = []

  subscript(task: TaskID) -> Bool {
    get { task.rawValue < flags.count && flags[task.rawValue] }
    set {
      if task.rawValue >= flags.count { flags.append(contentsOf: repeatElement(false, count: task.rawValue + 1 - flags.count)) }
      flags[task.rawValue] = newValue
    }
  }
}
