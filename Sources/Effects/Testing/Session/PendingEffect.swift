/// Something the program did that the test script has to answer: an effect it performed, or, when
/// the script handles tasks, a task it created.
struct PendingEffect: Sendable {
  enum Subject: Sendable {
    /// An effect, its arguments as one tuple, and where its reply goes.
    case effect(arguments: any Sendable, slot: any AnswerSlot)
    /// A task created with `Task.effect`, held until the script enqueues it.
    case task(TrackedTask)
  }

  /// The effect's name, or the task's.
  let name: String
  /// How failure messages show it: `Console.print("Hello")`, `task "Task 1"`.
  let description: String
  let subject: Subject
  /// Whether the program handed it over from the scheduler's thread, so that its reply is handed
  /// over there too.
  var isOnDriver = false

  init<each Argument: Sendable>(name: String, arguments: repeat each Argument, slot: any AnswerSlot) {
    var shown: [String] = []
    for argument in repeat each arguments { shown.append(String(reflecting: argument)) }
    self.name = name
    description = "\(name)(\(shown.joined(separator: ", ")))"
    subject = .effect(arguments: (repeat each arguments), slot: slot)
  }

  init(task: TrackedTask) {
    name = task.name
    description = "task \"\(task.name)\""
    subject = .task(task)
  }
}
