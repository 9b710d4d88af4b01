/// One thing that happened to one task at one step of a run.
public struct TraceEvent: Hashable, Sendable, CustomStringConvertible {
  /// What happened.
  public enum Kind: String, Hashable, Sendable {
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
    /// A default actor's job ran. It runs the code of whichever tasks are queued on that actor;
    /// they show up in the trace when they leave the actor again.
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
  /// For an actor's job, the task that was running when it was scheduled (see
  /// ``ReadyJob/scheduledBy``).
  public var scheduledBy: TaskID?
  /// Whether the job that began runs its task on the main actor.
  public var onMainActor: Bool

  /// Creates an event.
  public init(
    step: Int, task: TaskID?, kind: Kind, fromOutside: Bool = false, scheduledBy: TaskID? = nil, onMainActor: Bool = false
  ) {
    self.step = step
    self.task = task
    self.kind = kind
    self.fromOutside = fromOutside
    self.scheduledBy = scheduledBy
    self.onMainActor = onMainActor
  }

  /// `step 4: #2 resumed`.
  public var description: String {
    let subject = task.map(\.description) ?? "actor" + (scheduledBy.map { " scheduled by \($0)," } ?? "")
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
    }
  }
}
