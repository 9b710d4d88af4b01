/// A job a strategy may pick to run next.
///
/// A scheduler lists its ready jobs in the order they became ready, so always picking the first one
/// gives first-in-first-out order.
public struct ReadyJob: Hashable, Sendable, CustomStringConvertible {
  /// The task whose next segment this job runs, or `nil` for a default actor's job, which runs
  /// whatever is queued on that actor.
  public var task: TaskID?
  /// Whether the job was handed to the scheduler from a thread outside its control, for example
  /// by a continuation resumed on another thread or by work returning from the main actor.
  public var arrivedFromOutside: Bool

  /// Creates a ready job.
  public init(task: TaskID?, arrivedFromOutside: Bool = false) {
    self.task = task
    self.arrivedFromOutside = arrivedFromOutside
  }

  /// `#3` for a task's job, `actor` for an actor's job.
  public var description: String { task.map(\.description) ?? "actor" }
}
