/// One thing that happened to one task at one step of a run.
public struct TraceEvent: Hashable, Sendable, CustomStringConvertible {
  /// What happened.
  public enum Kind: String, Hashable, Sendable {
    /// The task's job paused in its synchronous code, at a lock or atomic the scheduler controls,
    /// to go on at a later step.
    case paused
    /// The task was created.
    case spawned
    /// The task's first job began.
    case started
    /// A later job of the task began, after a suspension point.
    case resumed
    /// The task's job ended at a suspension point.
    case suspended
    /// The task's job ended with the task finished.
    case completed
    /// The scheduler saw that the task had been cancelled.
    case cancelled
    /// A default actor's job ran. It runs the code of whichever tasks are queued on that actor:
    /// ``TraceEvent/actor`` says which actor, ``Trace/actorJobTasks`` for which tasks.
    case actorJob = "actor job"
  }

  /// The step the event belongs to; events before the first step belong to step 0.
  public var step: Int
  /// The task, or `nil` for an actor's job.
  public var task: TaskID?
  /// What happened.
  public var kind: Kind
  /// Whether the job that began was handed over from a thread outside the scheduler's control.
  public var fromOutside: Bool
  /// For an actor's job, the task it was scheduled for (see ``ReadyJob/scheduledBy``), whose step
  /// the strategies take it to be.
  public var scheduledBy: TaskID?
  /// Whether the job that began runs its task on the main actor.
  public var onMainActor: Bool
  // An index rather than a name, and the tasks an actor's job ran kept in the trace rather than
  // here: an event holds no references, so recording and discarding events counts none.
  /// For an actor's job, the actor: its index in ``Trace/actors``, or `nil` when the job was not
  /// a default actor's.
  public var actor: Int?

  /// Creates an event.
  package init(
    step: Int, task: TaskID?, kind: Kind, fromOutside: Bool = false, scheduledBy: TaskID? = nil, onMainActor: Bool = false,
    actor: Int? = nil
  ) {
    self.step = step
    self.task = task
    self.kind = kind
    self.fromOutside = fromOutside
    self.scheduledBy = scheduledBy
    self.onMainActor = onMainActor
    self.actor = actor
  }

  /// `step 4: #2 resumed`, `step 5: actor 1 scheduled by #2, actor job`.
  public var description: String {
    let actorName = "actor" + (actor.map { " \($0)" } ?? "")
    let subject = task.map(\.description) ?? actorName + (scheduledBy.map { " scheduled by \($0)," } ?? "")
    let place = onMainActor ? " on the MainActor" : ""
    return "step \(step): \(subject) \(kind.rawValue)\(place)\(fromOutside ? " (from outside)" : "")"
  }
}

extension TraceEvent.Kind {
  /// A small number for each kind, for the trace fingerprint.
  var code: UInt8 {
    switch self {
    case .spawned: 0
    case .started: 1
    case .resumed: 2
    case .suspended: 3
    case .completed: 4
    case .cancelled: 5
    case .actorJob: 6
    case .paused: 7
    }
  }
}
