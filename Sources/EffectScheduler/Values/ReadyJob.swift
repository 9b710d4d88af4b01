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
  /// For an actor's job, the task whose work it was scheduled for: the task that was running when
  /// it was scheduled, typically by stepping onto the actor, or, for a job scheduled by an actor's
  /// job or between steps (an actor going on with the work queued on it, a task moving on from one
  /// actor to another), the task of the job that ran last, whose work it carries on. `nil` for a
  /// job handed over from outside the scheduler's control.
  public var scheduledBy: TaskID?
  /// Whether the job runs its task on the main actor, which the scheduler stands in for.
  public var isOnMainActor: Bool
  /// Whether this is no job but the choice to fire the earliest pending timer now, while jobs are
  /// ready: a timer due already, after another due at the same instant fired, or one fired early
  /// (see ``SchedulerConfiguration/earlyTimerFirings``). It is offered last among the ready jobs.
  public var firesTimer: Bool

  /// Creates a ready job.
  package init(
    task: TaskID?, arrivedFromOutside: Bool = false, scheduledBy: TaskID? = nil, isOnMainActor: Bool = false,
    firesTimer: Bool = false
  ) {
    self.task = task
    self.arrivedFromOutside = arrivedFromOutside
    self.scheduledBy = scheduledBy
    self.isOnMainActor = isOnMainActor
    self.firesTimer = firesTimer
  }

  /// The choice to fire the earliest pending timer now.
  public static let timer = ReadyJob(task: nil, firesTimer: true)

  /// The task whose step running this job is: its own task, or for an actor's job the task it was
  /// scheduled for. Preemption counts and PCT priorities go by it, and the trace names it first
  /// among the tasks an actor's job ran.
  public var owner: TaskID? { task ?? scheduledBy }

  /// `#3` for a task's job, `actor(#2)` for an actor's job scheduled by task #2, `timer` for the
  /// choice to fire a timer, followed by
  /// ` on the main actor` or ` from outside` where that holds, so that two jobs that differ are
  /// never described alike.
  public var description: String {
    if firesTimer { return "timer" }
    return (task.map(\.description) ?? "actor" + (scheduledBy.map { "(\($0))" } ?? ""))
      + (isOnMainActor ? " on the main actor" : "") + (arrivedFromOutside ? " from outside" : "")
  }
}
