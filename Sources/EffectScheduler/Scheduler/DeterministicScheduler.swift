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
  // exclusivity checks, which cost a tenth of the scheduler's time, are turned off.
  @exclusivity(unchecked) var readyJobs: [UnownedJob] = []
  @exclusivity(unchecked) var readyInfo: [ReadyJob] = []
  @exclusivity(unchecked) var trampolines: [UnownedJob] = []
  /// Main-actor jobs that arrived while another was ready, oldest first.
  @exclusivity(unchecked) var waitingMainActorJobs: [(UnownedJob, ReadyJob)] = []
  /// Whether a main-actor job is among the ready jobs; there is at most one.
  @exclusivity(unchecked) var mainActorJobIsReady = false
  @exclusivity(unchecked) var registry = TaskRegistry()
  @exclusivity(unchecked) var events: [RecordedEvent] = []
  @exclusivity(unchecked) var choices: [ScheduleChoice] = []
  @exclusivity(unchecked) var step = 0
  static let fingerprintSeed: UInt64 = 0xCBF2_9CE4_8422_2325
  @exclusivity(unchecked) var fingerprint = fingerprintSeed
  @exclusivity(unchecked) var runningTask: TaskID?
  /// The task whose step the job that ran last was (``ReadyJob/owner``): an actor's job scheduled
  /// while no task runs carries on its work.
  @exclusivity(unchecked) var ownerOfLastJob: TaskID?
  /// The default actors of the run; see RunActors.swift.
  @exclusivity(unchecked) var actors = RunActors()
  /// The step in which the root task completed, the program's body having returned or thrown.
  @exclusivity(unchecked) var rootCompletedInStep: Int?
  var rootCompleted: Bool { rootCompletedInStep != nil }
  @exclusivity(unchecked) var unownedExecutor: UnownedTaskExecutor?
  /// The runtime id of the run's root task: tasks created before it are not the program's.
  @exclusivity(unchecked) var rootRuntimeID: UInt64 = 0
  /// The runtime id of the task whose job is running, and whether it runs on the main actor.
  @exclusivity(unchecked) var runningRuntimeID: UInt64 = 0
  @exclusivity(unchecked) var runningOnMainActor = false
  /// The job of the running task, to tell whether the runtime still counts it as running.
  @exclusivity(unchecked) var runningJob: UnownedJob?
  /// A job of the running task that it handed to the global executor only to hop there.
  @exclusivity(unchecked) var selfHop: UnownedJob?
  /// The name `Task.effect` gives the task it is creating, for the scheduler to register it under.
  @exclusivity(unchecked) var nameOfNextTask: String?
  /// The runtime ids of the tasks without an executor preference that this run took over.
  @exclusivity(unchecked) var ownedRuntimeIDs: [UInt64] = []
  /// Whether this run reads its tasks' status, holding its unstructured tasks and giving those
  /// without a preference the scheduler as one, and the tasks it holds; see ExecutorAdoption.swift.
  @exclusivity(unchecked) var readsTaskStatus = false
  @exclusivity(unchecked) var heldTasks: [HeldTask] = []
  /// The held tasks whose completion an actor's job may still have brought about unrecorded:
  /// those not known to have completed at the last look (``recordHeldTasksCompleted()``).
  @exclusivity(unchecked) var heldTasksRunning: [TaskID] = []
  /// The run's task-group children, each retained until the run ends so that its memory stays
  /// its own; see ExecutorAdoption.swift.
  @exclusivity(unchecked) var retainedGroupChildren: [UnsafeRawPointer] = []
  /// Jobs of tasks that yielded, held back for fairness, and the streaks that decide it; see
  /// FairYields.swift.
  @exclusivity(unchecked) var fairYields = YieldFairness()

  // Virtual time; see DeterministicScheduler+VirtualTime.swift.
  @exclusivity(unchecked) var timers = TimerQueue()
  @exclusivity(unchecked) var timerSequence = 0
  @exclusivity(unchecked) var virtualNow = Duration.zero
  @exclusivity(unchecked) var clockAdvances: [ClockAdvance] = []
  /// How many timers the run fired while jobs were ready.
  @exclusivity(unchecked) var earlyFirings = 0
  /// The step at which a task delayed past an early timer read the clock or slept, from which on
  /// the run follows no strategy (see TimingAssumption.swift).
  @exclusivity(unchecked) var cutAtStep: Int?
  /// The steps in which the running code read the clock or began a sleep; see ``Trace/timedSteps``.
  @exclusivity(unchecked) var timedSteps: [Int] = []
  /// The timers the run's steps set; see ``Trace/timersSet``.
  @exclusivity(unchecked) var timersSet: [TimerSetting] = []
  /// The steps before which a timer due at the instant the clock was at already fired; see
  /// ``Trace/dueTimerFirings``.
  @exclusivity(unchecked) var dueTimerFirings: [Int] = []
  /// The steps at which the timer offered was due already; see ``Trace/dueTimerOffers``.
  @exclusivity(unchecked) var dueTimerOffers: [DueTimerOffer] = []
  /// The tasks the running step made ready, not cancelled then; see CancelledWhereMadeReady.swift.
  @exclusivity(unchecked) var madeReadyInStep: [(job: UnownedJob, task: TaskID)] = []
  /// The first thing the run met that no schedule can show, in words; see
  /// CancelledWhereMadeReady.swift.
  @exclusivity(unchecked) var unexplored: String?
  /// The first issue the test framework recorded in one of the run's steps, in words; see
  /// ``noteIssueRecordedByCallingCode(_:)``.
  @exclusivity(unchecked) var issueRecorded: String?
  /// The steps whose job was handed back from outside the scheduler's control.
  @exclusivity(unchecked) var outsideSteps: [Int] = []
  /// Whether the run records each cancellation at the step that made it and the locks each step
  /// took; see ``StrategyReference/watchesHiddenAccesses``.
  @exclusivity(unchecked) var watchedHiddenAccesses = false
  /// Whether the run notes the locks each step took: when it watches hidden accesses, or only
  /// locks (``StrategyReference/watchesLocks``).
  @exclusivity(unchecked) var watchedLocks = false
  /// The locks steps took, by step, each numbered in the order the run first took it.
  @exclusivity(unchecked) var lockTouches: [LockTouch] = []
  /// The number of each lock a step took, or -1 for one that guards nothing tasks share.
  @exclusivity(unchecked) var lockNumbers: [UInt: Int] = [:]
  /// For each uncontrolled mutex a job waited for, paused, while a paused job of the run held it
  /// (LockPauses.swift): the record its waiters wait on, as on a drop-in's.
  @exclusivity(unchecked) var uncontrolledLockStandIns: [UInt: ControlledLock] = [:]
  /// The thread of a cancellation handler that lent its turn to a paused job, parked until the
  /// job lets go of the mutex the handler waits for (LockPauses.swift).
  @exclusivity(unchecked) var lentTurnWaiter: HostThread?
  @exclusivity(unchecked) var nextLockNumber = 0
  /// The last step that took a lock the scheduler does not control; see
  /// ``SchedulerConfiguration/pausesBetweenCriticalSections``.
  @exclusivity(unchecked) var stepThatTookAProgramLock = -1
  /// The reads of other tasks' cancelled flags steps made through their handles, by step (see
  /// CancellationReads.swift).
  @exclusivity(unchecked) var taskReads: [TaskRead] = []
  /// Whether a step of a watching run took a lock through Foundation's slots or the program's own
  /// (an `NSLock`, a `pthread_mutex_t`, a `pthread_rwlock_t`): a lock the scheduler does not
  /// control, whose critical sections no schedule splits.
  @exclusivity(unchecked) var tookUncontrolledLocks = false
  /// The driver thread's stack, whose locks guard nothing tasks share; read when first needed.
  private(set) lazy var driverStack: Range<UInt> = {
    #if os(Linux) && _pointerBitWidth(_64)
      VisibleLocks.stackOfCallingThread()
    #else
      0..<0
    #endif
  }()
  /// The work the run's code handed to Dispatch; see DispatchHandOffs.swift.
  @exclusivity(unchecked) var handOffs: [HandOff] = []
  /// The threads the run under way started (see RunThreads.swift).
  @exclusivity(unchecked) var runThreads = RunThreads()
  /// What the program's tasks added to the trace; kept apart from `events`, whose plain values
  /// cost nothing to copy or clear on the hot path.
  @exclusivity(unchecked) var notes: [TraceNote] = []
  /// The pauses of the run's jobs at locks, which the trace names.
  @exclusivity(unchecked) var lockPauses: [LockPause] = []
  /// Whether each step notes when it began, which this scheduler does from its first sleep on, to
  /// bound when a sleep read the clock. Before that, the start of the run bounds it.
  @exclusivity(unchecked) var tracksStepStarts = false
  /// The exact duration of the sleep about to be handed over, when ``SchedulerClock`` knows it.
  @exclusivity(unchecked) var exactDelayOfNextSleep: Duration?
  @exclusivity(unchecked) var stepStartedAt = RealTime.now
  /// When the run began, in real time, on the continuous clock and, as a duration since its
  /// epoch, on the suspending one: the virtual clocks the run's code reads start there (see
  /// VirtualClockReads.swift).
  @exclusivity(unchecked) var runStartedAt = RealTime.now
  @exclusivity(unchecked) var suspendingRunStart = Duration.zero

  /// What the root binds for the program, and how the scheduler learns that plain tasks complete
  /// (see `ActiveRun`). Made for the first run and kept until ``retire()``.
  @exclusivity(unchecked) var activeRun: ActiveRun?
  /// While the running job's task is watched for completion, how many references to
  /// ``activeRun`` there should be once the job is done unless the task completes; `nil` otherwise.
  @exclusivity(unchecked) var witnessBaseline: Int?

  /// The scheduler's stand-in for the main actor, made the first time a run hops to it.
  private(set) lazy var mainActorExecutor = MainActorExecutor(scheduler: self)
  /// Called on the driver thread when no job is ready, before waiting; returns whether it made a
  /// job ready (for example by resuming a task it had held back).
  @exclusivity(unchecked) package var whenIdle: (() -> Bool)?
  // Jobs paused in their synchronous code; see DeterministicScheduler+Pausing.swift.
  @exclusivity(unchecked) var pausedJobs: [PausedJob] = []
  /// Whether the job about to pause is an actor's, at a hand-off (see `pauseDrainIfItGoesOn`).
  var pausingAtHandOff = false
  /// The run's threads parked at the end of a step, ready to go on with the loop.
  @exclusivity(unchecked) var idleHosts: [HostThread] = []
  /// The thread that called ``drive()``, whose caller waits for the run's ending.
  @exclusivity(unchecked) var originalHost: HostThread?
  /// Whether the run's first thread runs no job and waits for the run's ending, parked (see
  /// ``drive()``).
  @exclusivity(unchecked) var firstThreadWaitsApart = false
  /// The step a thread paused in, for the thread that goes on with the loop to end.
  @exclusivity(unchecked) var stepToEnd: ReadyJob?
  /// The job of the step under way, while it runs.
  @exclusivity(unchecked) var runningStep: ReadyJob?
  /// The job under way, published for the watch of jobs that block their thread.
  let jobRecord = RunningJobRecord()
  /// The actor whose job runs, by its number in the trace, while it runs.
  @exclusivity(unchecked) var runningActor: Int?
  /// How many jobs have paused, ever; read by a thread whose job ran to tell whether one did.
  let pauseCount = Atomic<Int>(0)
  /// The ending of a run ended by another thread than the first, and its paused jobs let go.
  @exclusivity(unchecked) var concludedEnding: RunEnding?
  @exclusivity(unchecked) var orphanedJobs: OrphanedJobs?
  /// The number of the run under way, which locks held in earlier runs do not belong to.
  @exclusivity(unchecked) var runSerial: UInt64 = 0
  /// A misuse of a controlled lock in the step under way, which ends the run after the step.
  @exclusivity(unchecked) var pendingMisuse: SchedulerError.Reason?

  /// Whether the driver thread is running a guest's job; see DeterministicScheduler+Guests.swift.
  @exclusivity(unchecked) var hostsGuest = false

  /// The scheduler that controls the current task, or `nil` outside any scheduler.
  public static var current: DeterministicScheduler? { active?.scheduler }

  init(configuration: SchedulerConfiguration) {
    self.configuration = configuration
    readyJobs.reserveCapacity(16)
    readyInfo.reserveCapacity(16)
    events.reserveCapacity(64)
    choices.reserveCapacity(32)
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
