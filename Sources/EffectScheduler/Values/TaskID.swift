/// The logical identity of a task under a ``DeterministicScheduler``.
///
/// Ids are handed out in creation order, starting with `0` for the root task, so the same
/// program run under the same schedule gives every task the same id on every run.
///
/// ```swift
/// let execution = try await DeterministicScheduler.run { … }
/// execution.trace.tasks[0].id == TaskID(0) // the root task
/// ```
public struct TaskID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The position of the task in creation order.
  public let rawValue: Int

  /// Creates the id of the task created `rawValue`-th in a run.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Creates the id of the task created `rawValue`-th in a run.
  public init(_ rawValue: Int) { self.rawValue = rawValue }

  /// The id written as `#n`.
  public var description: String { "#\(rawValue)" }

  /// Orders ids by creation order.
  public static func < (lhs: TaskID, rhs: TaskID) -> Bool { lhs.rawValue < rhs.rawValue }
}
