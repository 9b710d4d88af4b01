#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A serial executor that owns every job of a program and runs exactly one at a time, in an order
/// a ``SchedulingStrategy`` picks, recording the choices as a ``Schedule`` and what happened as a
/// ``Trace``.
///
/// The program's root task runs with the scheduler as its task executor preference, so its
/// structured children (`async let`, task groups), the default actors they call and the tasks it
/// creates with `Task.effect` all hand their jobs to the scheduler.
///
/// ```swift
/// let execution = try await DeterministicScheduler.run(strategy: .random(seed: 7)) {
///   let counter = Counter()
///   async let a: Void = counter.increment()
///   async let b: Void = counter.increment()
///   _ = await (a, b)
///   return await counter.value
/// }
/// print(execution.value, execution.schedule)
/// print(execution.trace.table)
/// ```
///
/// What escapes the scheduler: a plain `Task {}` or `Task.detached {}` does not inherit the
/// executor preference, and `@MainActor` code runs on the main thread. Such work runs concurrently
/// with the program and may make runs differ. When it hands work back (for example by resuming a
/// continuation), the job is marked as arriving from outside in the trace. Use `Task.effect` for
/// tasks that should stay under control.
public final class DeterministicScheduler: TaskExecutor, @unchecked Sendable {
  // Everything below but `mailbox` is touched only by the driver thread: the thread that created
  // the scheduler and runs its jobs.

  @TaskLocal static var active: DeterministicScheduler?

  var configuration: SchedulerConfiguration
  /// The strategy of the run under way, borrowed from ``execute(strategy:operation:)``'s caller
  /// for the length of the run, so a search's strategy is neither copied nor cast at every run.
  var strategy: StrategyReference?
  let mailbox = Mailbox()
  /// Kept here, so a step does not go through the lazily made global's check.
  let isCancelled = CancellationReader()
  private let driverThread = pthread_self()
  var isDriving = true

  // Only the driver thread touches these, and never from two accesses at once, so the dynamic
  // exclusivity checks, which cost a tenth of the scheduler's time, are turned off.
  @exclusivity(unchecked) var readyJobs: [UnownedJob] = []
  @exclusivity(unchecked) var readyInfo: [ReadyJob] = []
  @exclusivity(unchecked) var trampolines: [UnownedJob] = []
  @exclusivity(unchecked) var registry = TaskRegistry()
  @exclusivity(unchecked) var events: [TraceEvent] = []
  @exclusivity(unchecked) var choices: [ScheduleChoice] = []
  @exclusivity(unchecked) var step = 0
  static let fingerprintSeed: UInt64 = 0xCBF2_9CE4_8422_2325
  @exclusivity(unchecked) var fingerprint = fingerprintSeed
  @exclusivity(unchecked) var runningTask: TaskID?
  @exclusivity(unchecked) var rootCompleted = false
  @exclusivity(unchecked) private var unownedExecutor: UnownedTaskExecutor?
  /// Called on the driver thread when no job is ready, before waiting; returns whether it made a
  /// job ready (for example by resuming a task it had held back).
  @exclusivity(unchecked) package var whenIdle: (() -> Bool)?

  /// The scheduler that controls the current task, or `nil` outside any scheduler.
  public static var current: DeterministicScheduler? { active }

  init(configuration: SchedulerConfiguration) {
    self.configuration = configuration
    readyJobs.reserveCapacity(16)
    readyInfo.reserveCapacity(16)
    events.reserveCapacity(64)
    choices.reserveCapacity(32)
  }

  /// Makes a scheduler whose run ended cleanly ready for another run, keeping its storage.
  func reset(configuration: SchedulerConfiguration) {
    self.configuration = configuration
    readyJobs.removeAll(keepingCapacity: true)
    readyInfo.removeAll(keepingCapacity: true)
    trampolines.removeAll(keepingCapacity: true)
    registry.removeAll()
    events.removeAll(keepingCapacity: true)
    choices.removeAll(keepingCapacity: true)
    step = 0
    fingerprint = Self.fingerprintSeed
    runningTask = nil
    rootCompleted = false
    whenIdle = nil
    isDriving = true
    mailbox.reopen()
  }

  var executor: UnownedTaskExecutor {
    if let unownedExecutor { return unownedExecutor }
    let executor = asUnownedTaskExecutor()
    unownedExecutor = executor
    return executor
  }

  /// Whether the calling thread is the one that drives this scheduler, where its controlled jobs
  /// run. The Effects test machinery uses it to tell the program's own steps from work that comes
  /// back from outside (the main actor, another thread).
  package var isOnDriverThread: Bool { pthread_equal(pthread_self(), driverThread) != 0 }

  /// Takes a job from the runtime. Jobs from the driver thread join the ready jobs at once; jobs
  /// from any other thread wait in the mailbox until the driver collects them.
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    if isOnDriverThread && isDriving {
      admit(job, fromOutside: false)
    } else {
      mailbox.post(job, runningLateOn: self)
    }
  }
}
