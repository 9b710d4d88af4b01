/// A run the scheduler had to stop: the program deadlocked, stalled on the outside world, ran too
/// long, or no longer fitted the schedule it replayed.
///
/// It carries the schedule and trace up to the stop, so the failing run can be read and replayed.
public struct SchedulerError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Why the run stopped.
  public enum Reason: Hashable, Sendable {
    /// Every unfinished task waits, and nothing outside the scheduler ever handed work back, so only
    /// tasks of the program could wake them, and none will. Each blocked task says what it waits on
    /// where the scheduler can tell: another task, an actor, a continuation or an `AsyncStream`.
    case deadlock(blocked: [BlockedTask])
    /// No job was ready and nothing came back from outside the scheduler within `waited`.
    case stalled(waited: Duration, blocked: [BlockedTask])
    /// The run took more than `limit` steps: possibly a livelock. Its steps from `fairAfter` on,
    /// if that is below `limit`, ran the job ready longest each, so no ready task was kept
    /// waiting (``SchedulerConfiguration/stepsBeforeFairness``).
    case stepLimitExceeded(limit: Int, fairAfter: Int?)
    /// A replayed schedule stopped matching the program.
    case diverged(ReplayDivergence)
    /// The strategy failed with an error of its own, described here.
    case strategyFailed(String)
    /// A task delayed past a timer the strategy fired early went on to read the clock or to sleep
    /// at `step`, so the run left the model of timed code and was stopped there, its tasks never
    /// to run again (see ``SchedulerConfiguration/earlyTimerFirings``). A search skips such runs.
    case cutShort(step: Int)
    /// A task misused a lock the scheduler controls (a drop-in of the Effects module): it
    /// unlocked a lock it does not hold, or one nobody holds (the message names the lock, the
    /// tasks and the call's source location), or it waited for one in a cancellation handler,
    /// where the runtime's lock on the cancelled task keeps the scheduler from pausing it.
    case lockMisused(String)
    /// The program's body returned, or threw, while tasks it started were unfinished, and the run
    /// went on until none could go on (``SchedulerConfiguration/reportsLeakedTasks``): each
    /// blocked task says what it waits on. With `stillRunningAfter`, some kept running that many
    /// steps after the body returned, as a loop that never ends, and were left there.
    case leakedTasks(blocked: [BlockedTask], stillRunningAfter: Int?)
    /// Two tasks of instrumented code accessed the same memory, at least one writing, with
    /// nothing the run saw synchronize ordering the two accesses.
    case dataRace(DataRace)

    /// Whether no task could go on: a deadlock, a stall, or tasks left blocked when the body
    /// returned.
    public var isStuck: Bool {
      switch self {
      case .deadlock, .stalled: true
      case .leakedTasks(_, let stillRunningAfter): stillRunningAfter == nil
      default: false
      }
    }
  }

  /// Why the run stopped.
  public var reason: Reason
  /// The choices made up to the stop.
  public var schedule: Schedule
  /// What happened up to the stop.
  public var trace: Trace

  /// Creates a scheduler error.
  public init(reason: Reason, schedule: Schedule, trace: Trace) {
    self.reason = reason
    self.schedule = schedule
    self.trace = trace
  }

  /// One paragraph saying what happened, naming the tasks involved.
  public var summary: String {
    switch reason {
    case .deadlock(let blocked):
      return "deadlock: no task can run, and nothing outside the scheduler took part in the run, so only tasks of the program could wake the unfinished ones, and none will.\n"
        + BlockedTask.list(blocked)
    case .stalled(let waited, let blocked):
      return "stalled: no task can run, and nothing came back from outside the scheduler's control (another thread, a real timer, the main actor) within \(waited).\n"
        + BlockedTask.list(blocked)
    case .stepLimitExceeded(let limit, let fairAfter):
      let fairly =
        fairAfter.map { $0 < limit ? ", the steps after the first \($0) scheduled fairly, each running the job ready longest, so no task was starved" : "" } ?? ""
      return "possible livelock: the run took more than \(limit) steps\(fairly) (raise SchedulerConfiguration.maxSteps if the program really needs more)"
        + livelockedTasks
    case .diverged(let divergence):
      return divergence.description
    case .strategyFailed(let message):
      return "the scheduling strategy failed: \(message)"
    case .cutShort(let step):
      return "the run was stopped at step \(step): a task that a timer fired early had delayed then read the clock or slept, "
        + "and would have seen the delay in its own timing; such runs are outside the model of timed code (SchedulerConfiguration.earlyTimerFirings)"
    case .lockMisused(let message):
      return "lock misused: \(message)"
    case .dataRace(let race):
      return "data race: \(race), with nothing between them that orders the two (no actor, lock, atomic, spawn, completion or resumed continuation)"
    case .leakedTasks(let blocked, let stillRunningAfter):
      let state =
        stillRunningAfter.map { "some still running \($0) steps after it returned, as a loop that never ends would be" }
        ?? "and none of them can go on"
      return "leaked tasks: the body returned while tasks it started were unfinished, \(state). Await them, or cancel them "
        + "and await them, before the body returns (SchedulerConfiguration.reportsLeakedTasks = false lets a test leave them on purpose).\n"
        + BlockedTask.list(blocked)
    }
  }

  /// The tasks that kept running over the last steps of a run that took too many, as a sentence.
  private var livelockedTasks: String {
    let lastSteps = trace.steps - Self.shownSteps
    var running: [TaskID] = []
    for event in trace.events where event.step >= lastSteps && (event.kind == .started || event.kind == .resumed) {
      if let task = event.task, !running.contains(task) { running.append(task) }
    }
    let names = running.compactMap { id in trace.tasks.first { $0.id == id }?.description }
    guard !names.isEmpty else { return "" }
    return ". Over its last \(Self.shownSteps) steps these tasks kept running: " + names.joined(separator: ", ")
  }

  /// How many steps of the trace, and characters of the schedule, ``description`` shows at most,
  /// so that the error of a run that took a hundred thousand steps stays readable.
  static let shownSteps = 120
  static let shownScheduleCharacters = 2_000

  /// The summary, the schedule and the last steps of the trace; ``schedule`` and ``trace`` have
  /// them whole.
  public var description: String {
    var scheduleText = schedule.description
    if scheduleText.count > Self.shownScheduleCharacters {
      scheduleText = "\(scheduleText.prefix(Self.shownScheduleCharacters))… (\(scheduleText.count) characters in all; the error's `schedule` has it whole)"
    }
    return "\(summary)\nschedule: \(scheduleText)\ntrace:\n\(trace.table(lastSteps: Self.shownSteps))"
  }
}

/// A task that could not go on when a run stopped.
public struct BlockedTask: Hashable, Sendable, CustomStringConvertible {
  /// The task.
  public var task: TaskInfo
  /// The last step at which the task ran, if it ever did.
  public var lastStep: Int?
  /// What the task waits on, where the scheduler knows it: `task #2 B`, `its turn on actor
  /// Counter#2`, `a continuation that no task of the program can resume any more`, `an AsyncStream
  /// that no task of the program can feed any more`, a test script, or its child tasks. The
  /// runtime's own record of the wait is read where its layout is known (64-bit Linux, Swift
  /// 6.3); elsewhere only what the scheduler saw is said.
  public var waitingOn: String?
  /// Whether the task is paused in its synchronous code, at a lock of the Effects module, rather
  /// than suspended at an `await`.
  public var isPaused: Bool

  /// Creates a blocked-task entry.
  public init(task: TaskInfo, lastStep: Int?, waitingOn: String?, isPaused: Bool = false) {
    self.task = task
    self.lastStep = lastStep
    self.waitingOn = waitingOn
    self.isPaused = isPaused
  }

  /// `#1 A, suspended after step 3, waiting on …`, or `paused in step 3` for a task paused at a
  /// lock.
  public var description: String {
    let ran = lastStep.map { (isPaused ? "paused in step " : "suspended after step ") + "\($0)" } ?? "never ran"
    return "\(task), \(ran)" + (waitingOn.map { ", waiting on \($0)" } ?? "")
  }

  static func list(_ tasks: [BlockedTask]) -> String {
    tasks.map { "  - \($0)" }.joined(separator: "\n")
  }
}
