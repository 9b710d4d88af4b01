/// The result of running a program under a ``DeterministicScheduler``: its value, and the schedule
/// and trace that produced it.
public struct Execution<Value> {
  /// What the program returned.
  public var value: Value
  /// The choices the strategy made; replay them with ``ReplayStrategy``.
  public var schedule: Schedule
  /// What happened, step by step.
  public var trace: Trace
  /// Unstructured tasks still suspended when the program finished. Jobs they get later run
  /// outside the scheduler's control.
  public var unfinishedTasks: [TaskInfo]

  /// Creates an execution.
  package init(value: Value, schedule: Schedule, trace: Trace, unfinishedTasks: [TaskInfo] = []) {
    self.value = value
    self.schedule = schedule
    self.trace = trace
    self.unfinishedTasks = unfinishedTasks
  }
}

extension Execution: Sendable where Value: Sendable {}
