/// One decision of a schedule: which ready job ran at one step.
public enum ScheduleChoice: Hashable, Sendable, CustomStringConvertible {
  /// The next segment of this task ran.
  case task(TaskID)
  /// The actor job at this position among the ready jobs ran.
  case actorJob(position: Int)
  /// The earliest pending timer fired while jobs were ready, due then or early (see ``ReadyJob/timer``).
  case timer

  /// The choice that picks `job`, found at `position` among the ready jobs.
  package init(picking job: ReadyJob, at position: Int) {
    if job.firesTimer {
      self = .timer
    } else {
      self = job.task.map(ScheduleChoice.task) ?? .actorJob(position: position)
    }
  }

  /// The position of the job this choice picks among `ready`, or `nil` when it is not there.
  public func position(in ready: [ReadyJob]) -> Int? {
    switch self {
    case .task(let id):
      return ready.firstIndex { $0.task == id }
    case .actorJob(let position):
      return ready.indices.contains(position) && ready[position].task == nil && !ready[position].firesTimer ? position : nil
    case .timer:
      return ready.firstIndex { $0.firesTimer }
    }
  }

  /// `task #3`, `the actor job at position 1` or `a timer firing`, for messages.
  public var label: String {
    switch self {
    case .task(let id): "task \(id)"
    case .actorJob(let position): "the actor job at position \(position)"
    case .timer: "a timer firing"
    }
  }

  /// `3` for task #3, `a1` for the actor job at position 1, `t` for a timer firing.
  public var description: String {
    switch self {
    case .task(let id): "\(id.rawValue)"
    case .actorJob(let position): "a\(position)"
    case .timer: "t"
    }
  }
}
