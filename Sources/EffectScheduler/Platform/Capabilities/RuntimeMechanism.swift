/// A way the scheduler reaches into the concurrency runtime or the C library beyond their public
/// API, which works only where their private layout is the one it knows.
///
/// Each is probed once a process, on objects whose contents are known, before it is trusted (see
/// ``RuntimeCapabilities``); one that is off leaves the scheduler doing what it does on platforms
/// without it.
///
/// ```swift
/// if !RuntimeCapabilities.current.isOn(.executorAdoption) {
///   print(RuntimeMechanism.executorAdoption.withoutIt)
/// }
/// ```
public enum RuntimeMechanism: String, Hashable, Sendable, CaseIterable, Comparable, CustomStringConvertible {
  /// The runtime's hooks for jobs bound for the global executor and for the main actor's
  /// executor, through which plain tasks, the default actors they call and the main actor come
  /// under the scheduler. Without them only tasks made with the scheduler as their preference do.
  case globalExecutorHooks
  /// Reading what a suspended task waits on (another task, a continuation, an actor) from the
  /// runtime's dependency record. Gives deadlock and leak reports that name what each task waits
  /// for, and the reduced search's view of work queued on actors; without it reports fall back on
  /// what the scheduler saw, and a reduced search takes such work as touching every actor.
  case taskWaits
  /// Giving a plain `Task {}` the scheduler as its executor preference, so that each of its hops
  /// between actors is a step. Without it a plain task can hop between idle actors within one
  /// step, and the interleavings between those hops are in no schedule explored.
  case executorAdoption
  /// Reading the jobs a default actor has queued. Gives the reduced search the tasks an actor's
  /// job goes on with; without it those tasks are taken as touching the actor at any time.
  case actorQueues
  /// Reading which default actor a runtime job drains. Gives traces and reports the actor of an
  /// actor's job; without it such a job is named by its task alone.
  case actorJobs
  /// Telling a task's own status lock, which the runtime takes as tasks start, suspend and are
  /// cancelled, from the program's locks. Without it no lock is noted or paused at.
  case taskStatusLocks
  /// Reading which thread holds a `pthread_mutex_t` or `pthread_rwlock_t`, as glibc records it.
  /// Without it no lock is noted or paused at.
  case lockHolders
  /// Redirecting a library's calls to C functions (locks, Dispatch, the clock, thread creation)
  /// through its global offset table. Gives the noting of locks and of the cancelled flags steps
  /// read, pausing at locks, Dispatch hand-offs, virtual clock reads and the run's own threads;
  /// without it none of those is seen.
  case importedFunctionSlots
  /// Reading, by frame pointers, where a plain task was created. Gives reports that name an
  /// unnamed task by its line; without it such a task is named by its kind.
  case taskCreationSites

  /// What the mechanism gives, in a few words.
  public var description: String {
    switch self {
    case .globalExecutorHooks: "global executor hooks (plain tasks and the main actor under the scheduler)"
    case .taskWaits: "task waits (what a suspended task waits on)"
    case .executorAdoption: "executor adoption (plain tasks hop through the scheduler)"
    case .actorQueues: "actor queues (the jobs a default actor has queued)"
    case .actorJobs: "actor jobs (the actor a runtime job drains)"
    case .taskStatusLocks: "task status locks (told from the program's locks)"
    case .lockHolders: "lock holders (the thread that holds a pthread lock)"
    case .importedFunctionSlots: "imported function slots (locks, Dispatch, clock and threads seen)"
    case .taskCreationSites: "task creation sites (where a plain task was made)"
    }
  }

  /// What is lost where the mechanism is off, in a few words.
  public var withoutIt: String {
    switch self {
    case .globalExecutorHooks: "only tasks that prefer the scheduler are scheduled"
    case .taskWaits: "reports do not say what each task waits on"
    case .executorAdoption: "plain tasks hop between idle actors within one step"
    case .actorQueues: "the reduced search cannot list work queued on actors"
    case .actorJobs: "actor jobs are not named by their actor"
    case .taskStatusLocks, .lockHolders: "locks are neither noted nor paused at"
    case .importedFunctionSlots: "locks, Dispatch hand-offs, clock reads and threads go unseen"
    case .taskCreationSites: "unnamed plain tasks are not named by their line"
    }
  }

  /// In declaration order.
  public static func < (lhs: Self, rhs: Self) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}
