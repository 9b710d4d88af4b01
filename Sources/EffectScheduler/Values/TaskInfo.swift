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

  /// Creates a description of a task.
  public init(id: TaskID, name: String?, parent: TaskID?, kind: Kind) {
    self.id = id
    self.name = name
    self.parent = parent
    self.kind = kind
  }

  /// The id followed by the name, or by the kind when the task has no name: `#2 A`, `#3 async let`.
  public var description: String { "\(id) \(name ?? kind.rawValue)" }
}
