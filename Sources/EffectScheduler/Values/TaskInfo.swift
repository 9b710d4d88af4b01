/// What a scheduler knows about one task it controlled: its id, name, parent and kind.
public struct TaskInfo: Hashable, Sendable, CustomStringConvertible {
  /// How a task came to exist.
  public enum Kind: String, Hashable, Sendable {
    /// The task that runs the body handed to the scheduler.
    case root
    /// An unstructured task, such as one created by `Task.effect`.
    case unstructured
    /// A child task created by `async let`.
    case asyncLet = "async let"
    /// A child task added to a task group.
    case groupChild = "group child"
  }

  /// The task's logical id.
  public var id: TaskID
  /// The name the task was created with, when the scheduler could learn it.
  public var name: String?
  /// The task that was running when this one was created, if it was a controlled task.
  public var parent: TaskID?
  /// How the task was created.
  public var kind: Kind
  /// Where an unstructured task was created, when the scheduler recorded it: see ``origin``.
  package var creation: TaskCreation?

  /// Creates a description of a task.
  package init(id: TaskID, name: String?, parent: TaskID?, kind: Kind) {
    self.id = id
    self.name = name
    self.parent = parent
    self.kind = kind
  }

  /// Where a plain `Task {}` or `Task.detached {}` without a name was created, as
  /// `Task at SearchModel.swift:14`, or `Task in SearchModel.search()` where the program has no
  /// line information; `nil` for other tasks, and where the call stack could not be read.
  ///
  /// Worked out when first asked, from the return addresses the scheduler recorded when the task
  /// was created: only reports pay for reading the program's debug information.
  public var origin: String? { creation?.label }

  /// The id followed by the name, or by where the task was created when it has no name, or by
  /// the kind: `#2 A`, `#1 Task at SearchModel.swift:14`, `#3 async let`.
  public var description: String { "\(id) \(name ?? origin ?? kind.rawValue)" }

  /// ``description`` without where the task was created: `#1 unstructured`. For text made while
  /// a search runs, which reading the program's debug information (a tenth of a second or more,
  /// the first time) would slow down.
  package var descriptionWithoutOrigin: String { "\(id) \(name ?? kind.rawValue)" }

  /// Whether two descriptions are of the same task: the same id, name, parent and kind. Where the
  /// task was created is left out, as it is read off the call stack, whose outer frames differ
  /// from thread to thread while the program does the same.
  public static func == (lhs: TaskInfo, rhs: TaskInfo) -> Bool {
    lhs.id == rhs.id && lhs.name == rhs.name && lhs.parent == rhs.parent && lhs.kind == rhs.kind
  }

  /// Hashes what equality compares: everything but the place the task was created.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(id)
    hasher.combine(name)
    hasher.combine(parent)
    hasher.combine(kind)
  }
}
