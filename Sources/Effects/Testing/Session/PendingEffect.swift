/// Something the program did that the test script has to answer: an effect it performed, or, when
/// the script handles them, a task it created or an element a stream yielded.
struct PendingEffect: Sendable {
  enum Subject: Sendable {
    /// An effect, its arguments as one tuple, and where its reply goes.
    case effect(arguments: any Sendable, slot: any AnswerSlot)
    /// A task created with `Task.effect`, held until the script enqueues it.
    case task(TrackedTask)
    /// An element a stream made with `.effect` yielded, held until the script delivers it.
    case element(HeldElement)
  }

  /// The effect's name, the task's, or the stream's.
  let name: String
  /// How failure messages show it: `Console.print("Hello")`, `task "Task 1"`, `ticks ← 3`.
  let description: String
  let subject: Subject
  /// Whether the program handed it over from the scheduler's thread, so that its reply is handed
  /// over there too.
  var isOnDriver = false
  /// How many items the program handed over before it, which tells it apart from the others.
  var number = 0

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

  /// Whether it is an element yielded to a stream, to the one named `stream` if given.
  func isElement(of stream: String? = nil) -> Bool {
    guard case .element = subject else { return false }
    return stream.map { $0 == name } ?? true
  }

  /// What it is when the program does it after the script has ended.
  var problemAfterScriptEnded: EffectTestFailure.Problem {
    guard case .element(let element) = subject else { return .performedAfterScriptEnded(performed: description) }
    return element.unexpected
  }

  init(element: HeldElement) {
    name = element.stream.name
    description = element.description
    subject = .element(element)
  }
}
