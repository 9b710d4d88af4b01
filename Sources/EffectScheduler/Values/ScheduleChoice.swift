/// One decision of a schedule: which ready job ran at one step.
public enum ScheduleChoice: Hashable, Sendable, CustomStringConvertible {
  /// The next segment of this task ran.
  case task(TaskID)
  /// The actor job at this position among the ready jobs ran.
  case actorJob(position: Int)

  /// The choice that picks `job`, found at `position` among the ready jobs.
  public init(picking job: ReadyJob, at position: Int) {
    self = job.task.map(ScheduleChoice.task) ?? .actorJob(position: position)
  }

  /// The position of the job this choice picks among `ready`, or `nil` when it is not there.
  public func position(in ready: [ReadyJob]) -> Int? {
    switch self {
    case .task(let id):
      return ready.firstIndex { $0.task == id }
    case .actorJob(let position):
      return ready.indices.contains(position) && ready[position].task == nil ? position : nil
    }
  }

  /// `task #3` or `the actor job at position 1`, for messages.
  public var label: String {
    switch self {
    case .task(let id): "task \(id)"
    case .actorJob(let position): "the actor job at position \(position)"
    }
  }

  /// `3` for task #3, `a1` for the actor job at position 1.
  public var description: String {
    switch self {
    case .task(let id): "\(id.rawValue)"
    case .actorJob(let position): "a\(position)"
    }
  }
}
