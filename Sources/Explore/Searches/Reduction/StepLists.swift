import EffectScheduler

/// A short list of tasks for each step of a run, kept one after another in one array: the
/// analysis of every run makes such lists, and one array each would cost an allocation a step.
struct StepLists {
  private var tasks: [TaskID] = []
  /// Where each step's list begins in `tasks`, with the end of the last at the end.
  private var starts: [Int] = [0]

  /// No lists.
  init() {}

  /// Empties every list, keeping the storage.
  mutating func removeAll() {
    tasks.removeAll(keepingCapacity: true)
    starts.removeAll(keepingCapacity: true)
    starts.append(0)
  }

  /// Adds the next step's list.
  mutating func append(_ list: some Sequence<TaskID>) {
    tasks.append(contentsOf: list)
    starts.append(tasks.count)
  }

  /// The list of `step`.
  subscript(step: Int) -> ArraySlice<TaskID> { tasks[starts[step]..<starts[step + 1]] }
}
