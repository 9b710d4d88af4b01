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
  /// For an actor's job, the task that was running when the job was scheduled, typically the task
  /// that stepped onto the actor; `nil` when no controlled task was running.
  public var scheduledBy: TaskID?
  /// Whether the job runs its task on the main actor, which the scheduler stands in for.
  public var isOnMainActor: Bool

  /// Creates a ready job.
  public init(task: TaskID?, arrivedFromOutside: Bool = false, scheduledBy: TaskID? = nil, isOnMainActor: Bool = false) {
    self.task = task
    self.arrivedFromOutside = arrivedFromOutside
    self.scheduledBy = scheduledBy
    self.isOnMainActor = isOnMainActor
  }

  /// `#3` for a task's job, `actor(#2)` for an actor's job scheduled by task #2.
  public var description: String {
    task.map(\.description) ?? "actor" + (scheduledBy.map { "(\($0))" } ?? "")
  }
}
