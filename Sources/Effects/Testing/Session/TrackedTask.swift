/// A task the program created with `Task.effect` under a test script.
final class TrackedTask: Sendable {
  /// The task's name, or `unnamed task`.
  let name: String
  /// What the task's operation waits behind until the task is enqueued.
  let gate: TaskGate
  /// Waits until the task has finished.
  let completion: @Sendable () async -> Void

  init(name: String?, gate: TaskGate, completion: @escaping @Sendable () async -> Void) {
    self.name = name ?? "unnamed task"
    self.gate = gate
    self.completion = completion
  }

  /// Lets the task's operation start.
  func enqueue() {
    gate.open()
  }
}
