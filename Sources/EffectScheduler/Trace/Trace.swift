/// Everything that happened in one run: the tasks, and the events of each step.
///
/// Two runs of the same program under the same ``Schedule`` give equal traces, so comparing traces is
/// how replay and determinism are checked. ``table`` prints the trace with one column a task.
public struct Trace: Hashable, Sendable, CustomStringConvertible {
  /// Every task the run saw, indexed by `TaskID.rawValue`.
  public var tasks: [TaskInfo]
  /// The events, in the order they happened.
  public var events: [TraceEvent]
  /// How many steps, that is jobs, the run took.
  public var steps: Int
  /// Each move of the run's virtual clock, in order; empty when nothing slept.
  public var clockAdvances: [ClockAdvance]
  /// The default actors whose jobs ran, in the order of their first job (see
  /// ``TraceEvent/actor`` and ``actorName(_:)``).
  public var actors: [TraceActor]
  /// For each step that ran an actor's job with the work of more than the task it was scheduled
  /// for, or that went on with the actor's queue after the job handed another job over (see
  /// ``ReadyJob/scheduledBy``), the tasks whose work it ran, as far as the scheduler saw: the task
  /// it was scheduled for, or went on with, first, then each task seen running on the actor.
  public var actorJobTasks: [Int: [TaskID]]
  /// What the program's tasks added to the trace, in order, such as the elements that streams
  /// made with `AsyncStream.effect` delivered; empty when there were none.
  public var notes: [TraceNote]
  /// The steps whose actor job ran a task without an executor preference, such as a plain
  /// `Task {}`: the runtime lets such a task take the job's thread along to another actor that is
  /// idle, or off actors, so the job may have run work of other actors and nonisolated code.
  package var stepsBeyondTheirActor: Set<Int> = []
  /// Whether each `.cancelled` event is at the step that cancelled the task, as the partial-order
  /// reduction asks (``StrategyReference/watchesHiddenAccesses``), rather than at the cancelled
  /// task's first job after it.
  package var cancellationsAtTheirStep = false
  /// Where cancellations were at their step, the step from which they no longer were: the run had
  /// too many tasks live to look at each after every step.
  package var cancellationsUnwatchedFrom: Int?
  /// The locks that steps took, where the run watched for them: a stream's buffer, a task group's
  /// results, an `NSLock`. Each lock is numbered in the order the run first took it.
  package var locks: [LockTouch] = []
  /// For each step whose job paused at a lock, the lock, as the step's cell says it after
  /// `→pause`: `before EffectLock #0 (made at Inbox.swift:12)` for the scheduling point of its
  /// acquire, `waiting for EffectLock #0 (made at Inbox.swift:12)` while another task held it.
  package var lockPauses: [Int: String] = [:]
  /// The reads of another task's cancelled flag that steps made through its handle
  /// (`task.isCancelled`), where the run watched for them: what such a read finds depends on
  /// whether the step that cancels that task came first.
  package var taskReads: [TaskRead] = []
  /// The steps in which the running code read the clock (`ContinuousClock.now`,
  /// `SuspendingClock.now`, ``SchedulerClock``) or began a sleep, in order: what a timer fired
  /// early may change (see ``SchedulerConfiguration/earlyTimerFirings``).
  package var timedSteps: [Int] = []
  /// The timers the run's steps set, in order, with the instant each is due at: timers due at the
  /// same instant fire in the order they were set.
  package var timersSet: [TimerSetting] = []
  /// The steps before which a timer due at the instant the clock was at already fired, after
  /// another due then: the clock did not move, so ``clockAdvances`` does not list them. A step
  /// that fired one at the strategy's pick (``ScheduleChoice/timer``) is listed at that step.
  package var dueTimerFirings: [Int] = []
  /// The steps at which the timer choice offered (``ReadyJob/timer``) was one due already, in
  /// order, with the timers due then, the one offered first: firing it changes no time, only
  /// whether its task wakes before the step.
  package var dueTimerOffers: [DueTimerOffer] = []
  /// The step at which the run was cut short (see ``SchedulerError/Reason/cutShort(step:)``), or
  /// `nil` for a run that was not.
  package var cutAtStep: Int?
  /// How many timers the run could fire early (``SchedulerConfiguration/earlyTimerFirings``).
  package var earlyFiringsAllowed = 0
  /// Where the partial-order reduction asked (``StrategyReference/watchesHiddenAccesses``) and
  /// the code under test is instrumented, each step's touches of memory, in order; `nil` where
  /// the run could not see them.
  package var memory: MemoryTouches?

  /// Creates a trace.
  package init(
    tasks: [TaskInfo] = [], events: [TraceEvent] = [], steps: Int = 0, clockAdvances: [ClockAdvance] = [],
    actors: [TraceActor] = [], actorJobTasks: [Int: [TaskID]] = [:], notes: [TraceNote] = []
  ) {
    self.tasks = tasks
    self.events = events
    self.steps = steps
    self.clockAdvances = clockAdvances
    self.actors = actors
    self.actorJobTasks = actorJobTasks
    self.notes = notes
  }

  /// The virtual time at which `step` ran, counted from the start of the run.
  public func time(atStep step: Int) -> Duration {
    clockAdvances.last { $0.step <= step }?.time ?? .zero
  }

  /// The steps whose job was handed back from outside the scheduler's control: from another
  /// thread, a dispatch queue or a real timer.
  public var stepsWithWorkFromOutside: [Int] {
    var steps: [Int] = []
    for event in events where event.fromOutside && steps.last != event.step { steps.append(event.step) }
    return steps
  }

  /// The task with this id, if the run saw it.
  public subscript(task id: TaskID) -> TaskInfo? {
    tasks.indices.contains(id.rawValue) ? tasks[id.rawValue] : nil
  }

  /// The tasks in the order their jobs ran, one entry a step; `nil` for an actor's job.
  public var runOrder: [TaskID?] {
    events.compactMap { event in
      switch event.kind {
      case .started, .resumed, .actorJob: event.task
      default: .none
      }
    }
  }

  /// The trace as ``table``, or, for a run of more than ``describedSteps`` steps, as
  /// ``table(lastSteps:)`` of that many: a description is made wherever a trace is printed or a
  /// test reflects a value holding one, and a whole table has a row a step and a column a task.
  public var description: String { table(lastSteps: Self.describedSteps) }

  /// How many steps ``description`` shows at most.
  public static let describedSteps = 1_000

  /// The trace as a table with one row a step and one column a task. A cell says which segment of
  /// the task ran, from one suspension point to the next (`start→1`, `1→2`, `2→end`).
  public var table: String { TraceTable(self).render() }

  /// ``table`` restricted to the last `steps` steps, with a line saying how many came before, and
  /// to the tasks those steps name. Long traces, such as those of a possible livelock, stay
  /// readable this way, and the table grows with `steps`, not with the run's length.
  public func table(lastSteps steps: Int) -> String {
    guard self.steps > steps else { return table }
    let first = self.steps - steps
    var shortened = Trace(
      tasks: tasks, events: events.filter { $0.step >= first }, steps: self.steps, clockAdvances: clockAdvances,
      actors: actors, actorJobTasks: actorJobTasks, notes: notes.filter { $0.step >= first })
    shortened.lockPauses = lockPauses.filter { $0.key >= first }
    let table = TraceTable(shortened, from: first, onlyTasksNamed: true)
    let hidden = tasks.count - table.columnCount
    return "(\(first) earlier steps not shown" + (hidden > 0 ? ", nor the \(hidden) tasks only they name" : "") + ")\n" + table.render()
  }
}

/// A read of another task's cancelled flag that a step made: see ``Trace/taskReads``.
package struct TaskRead: Hashable, Sendable {
  /// The step that read it.
  package let step: Int
  /// The task whose flag it read.
  package let task: TaskID
}

/// A lock that a step took: see ``Trace/locks``.
package struct LockTouch: Hashable, Sendable {
  /// The step that took it.
  package let step: Int
  /// The lock, numbered in the order the run first took it.
  package let lock: Int
}
