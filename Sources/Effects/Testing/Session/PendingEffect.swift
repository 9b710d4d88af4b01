/// Something the program did that the test script has to answer: an effect it performed, or, when
/// the script handles them, a task it created or an element a stream yielded.
struct PendingEffect: Sendable {
  enum Subject: Sendable {
    /// An effect, its arguments as one tuple, and where its reply goes.
    case effect(arguments: any Sendable, slot: ReplySlot)
    /// A task created with `Task.effect`, held until the script enqueues it.
    case task(TrackedTask)
    /// An element a stream made with `.effect` yielded, held until the script delivers it.
    case element(HeldElement)
  }

  /// The effect's name, the task's, or the stream's.
  let name: String
  /// An effect's arguments, or what describes a task or an element.
  private let shown: Shown
  let subject: Subject
  /// Whether the program handed it over from the scheduler's thread, so that its reply is handed
  /// over there too.
  var isOnDriver = false
  /// How many items the program handed over before it, which tells it apart from the others.
  var number = 0

  init<each Argument: Sendable>(name: String, arguments: repeat each Argument, slot: ReplySlot) {
    var shown: [any Sendable] = []
    for argument in repeat each arguments { shown.append(argument) }
    self.name = name
    self.shown = .arguments(shown)
    subject = .effect(arguments: (repeat each arguments), slot: slot)
  }

  init(task: TrackedTask) {
    name = task.name
    shown = .text("task \"\(task.name)\"")
    subject = .task(task)
  }

  /// How failure messages show it: `Console.print("Hello")`, `task "Task 1"`, `ticks ← 3`.
  /// Made when asked, as few items are ever shown: formatting every effect's arguments cost more
  /// than handing the effect over.
  var description: String {
    switch shown {
    case .arguments(let arguments): "\(name)(\(arguments.map { String(reflecting: $0) }.joined(separator: ", ")))"
    case .text(let text): text
    }
  }

  /// What ``description`` is made from.
  private enum Shown: Sendable {
    case arguments([any Sendable])
    case text(String)
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
    shown = .text(element.description)
    subject = .element(element)
  }
}
