import Synchronization

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
/// Code that does not prefer the scheduler is brought under control too, through process-wide
/// runtime hooks that touch only the work of running schedulers: tasks created with a plain
/// `Task {}` or `Task.detached {}` by controlled code, and code isolated to the main actor, which
/// runs on the driver thread as the scheduler's jobs. Sleeps of controlled tasks wait on a virtual
/// clock (see ``Trace/clockAdvances``). What still escapes (other threads, dispatch queues, real
/// timers) hands work back through the mailbox, marked as coming from outside.
public final class DeterministicScheduler: TaskExecutor, @unchecked Sendable {
  // Everything below but `mailbox` is touched only by the driver thread: the thread that created
  // the scheduler and runs its jobs.

  @TaskLocal static var active: ActiveRun?

  var configuration: SchedulerConfiguration
  /// The strategy of the run under way, borrowed from ``execute(strategy:operation:)``'s caller
  /// for the length of the run, so a search's strategy is neither copied nor cast at every run.
  var strategy: StrategyReference?
  let mailbox = Mailbox()
  /// Kept here, so a step does not go through the lazily made global's check.
  let taskReader = TaskReader()
  /// The thread that runs the scheduler's loop or job now: the one that made it, unless a job
  /// paused (see DeterministicScheduler+Pausing.swift). Read by any thread, to tell its own.
  let activeThread = Atomic<UInt>(ThreadIdentity.current)
  var isDriving = true

  // Only the driver thread touches these, and never from two accesses at once, so the dynamic
  // exclusivity checks, a cost on every access of the hot path, are turned off.
  /// The jobs ready to run, in the order they became ready, with what the strategy is told of each;
  /// and the main actor's, which wait for its stand-in.
  @exclusivity(unchecked) var queue = ReadyQueue()
  /// The run's tasks: their records, the root's, the names given to tasks about to start, and the
  /// tasks the run holds so that their memory is not reused while it runs.
  @exclusivity(unchecked) var tasks = RunTasks()
  /// What the run records for its trace, step by step: the events and choices, the notes the
  /// program added, and what came from outside.
  @exclusivity(unchecked) var trail = RunTrail()
  @exclusivity(unchecked) var step = 0
  static let fingerprintSeed: UInt64 = 0xCBF2_9CE4_8422_2325
  /// The job the scheduler runs now, and its task: what the hooks and the drop-ins ask of the step
  /// under way.
  @exclusivity(unchecked) var running = RunningJobState()
  /// The default actors of the run; see RunActors.swift.
  @exclusivity(unchecked) var actors = RunActors()
  var rootCompleted: Bool { tasks.rootCompletedInStep != nil }
  @exclusivity(unchecked) var unownedExecutor: UnownedTaskExecutor?
  /// Jobs of tasks that yielded, held back for fairness, and the streaks that decide it; see
  /// FairYields.swift.
  @exclusivity(unchecked) var fairYields = YieldFairness()

  /// The run's virtual clock and what it records: the timers pending, the clock's moves, the
  /// steps that read it, and when each step began in real time (see
  /// DeterministicScheduler+VirtualTime.swift).
  @exclusivity(unchecked) var time = VirtualTimeState()
  /// Whether the run records each cancellation at the step that made it and the locks each step
  /// took; see ``StrategyReference/watchesHiddenAccesses``.
  @exclusivity(unchecked) var watchedHiddenAccesses = false
  /// What the run notes of the locks its steps take, and of the pauses at them: the scheduler's
  /// own, and those it does not control (see LockPauses.swift).
  @exclusivity(unchecked) var lockWatch = LockWatch()
  /// The data races of instrumented code in the run (Races/RaceDetector.swift).
  @exclusivity(unchecked) var races = RaceDetector()
  /// The driver thread's stack, whose locks guard nothing tasks share; read when first needed.
  private(set) lazy var driverStack: Range<UInt> = {
    #if os(Linux) && _pointerBitWidth(_64)
      VisibleLocks.stackOfCallingThread()
    #else
      0..<0
    #endif
  }()
  /// The threads the run under way started (see RunThreads.swift).
  @exclusivity(unchecked) var runThreads = RunThreads()

  /// What the root binds for the program, and how the scheduler learns that plain tasks complete
  /// (see `ActiveRun`). Made for the first run and kept until ``retire()``.
  @exclusivity(unchecked) var activeRun: ActiveRun?

  /// The scheduler's stand-in for the main actor, made the first time a run hops to it.
  private(set) lazy var mainActorExecutor = MainActorExecutor(scheduler: self)
  /// Called on the driver thread when no job is ready, before waiting; returns whether it made a
  /// job ready (for example by resuming a task it had held back).
  @exclusivity(unchecked) package var whenIdle: (() -> Bool)?
  // Jobs paused in their synchronous code; see DeterministicScheduler+Pausing.swift.
  /// The jobs paused in their synchronous code, and the threads that host them while they wait
  /// (see the Pausing folder).
  @exclusivity(unchecked) var pausing = PausingState()
  /// The job under way, published for the watch of jobs that block their thread.
  let jobRecord = RunningJobRecord()
  /// How many jobs have paused, ever; read by a thread whose job ran to tell whether one did.
  let pauseCount = Atomic<Int>(0)
  /// How the run under way ends, once that is known: its ending, the jobs it left behind, and a
  /// misuse of the scheduler noted where it could not be thrown.
  @exclusivity(unchecked) var conclusion = RunConclusion()
  /// The number of the run under way, which locks held in earlier runs do not belong to.
  @exclusivity(unchecked) var runSerial: UInt64 = 0

  /// Whether the driver thread is running a guest's job; see DeterministicScheduler+Guests.swift.
  @exclusivity(unchecked) var hostsGuest = false

  /// The scheduler that controls the current task, or `nil` outside any scheduler.
  public static var current: DeterministicScheduler? { active?.scheduler }

  init(configuration: SchedulerConfiguration) {
    self.configuration = configuration
    queue.readyJobs.reserveCapacity(16)
    queue.readyInfo.reserveCapacity(16)
    trail.events.reserveCapacity(64)
    trail.choices.reserveCapacity(32)
  }

  /// Breaks the cycle between this scheduler and its ``activeRun``, once nobody will run it again.
  /// Tasks a run left behind keep both alive for as long as they hold the `ActiveRun`, and, after
  /// a run cut short, for good: so the watch for stalled jobs stops looking at this scheduler's,
  /// as it will run none.
  func retire() {
    activeRun = nil
    jobRecord.stopBeingWatched()
  }

}
