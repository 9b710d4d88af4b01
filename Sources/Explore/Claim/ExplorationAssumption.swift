/// Something an exploration's claim rests on beyond the schedules it ran: a way in which a real
/// run of the program could differ from every run explored.
///
/// ```swift
/// let summary = try await explore(.exhaustive) { … }
/// for assumption in summary.claim.assumptions {
///   print(assumption, "- removed by", assumption.setting)
/// }
/// ```
public enum ExplorationAssumption: String, Hashable, Sendable, CaseIterable, Comparable, CustomStringConvertible {
  /// Steps took an `NSLock`, a `pthread_mutex_t` or a `pthread_rwlock_t`, which the scheduler did
  /// not control: each critical section ran whole within its step, so races inside it, or between
  /// two of them in one step, are in no schedule explored.
  case uncontrolledLocksRanWhole
  /// Steps made objects that hold a noncopyable value, such as `Synchronization`'s `Mutex` or
  /// `Atomic`, in code not built instrumented (see <doc:InstrumentedBuilds>): their critical
  /// sections and atomic operations, if any, ran whole within their steps, so races between two
  /// of them in one step are in no schedule explored. Seen on 64-bit Linux, where the objects of
  /// classes with a noncopyable stored property that a run's steps make are noted; a `Mutex` kept
  /// in a global goes unseen.
  case synchronizationRanWhole
  /// Work from outside the scheduler took part: a thread, a dispatch queue or a real timer handed
  /// work back, at the moment it happened to, not at every moment it could have.
  case outsideWorkTookPart
  /// The fairness rule held back a task that kept yielding without progress while another task
  /// waited to run, so the orders in which it went on yielding longer were not explored
  /// (`SchedulerConfiguration.yieldsBeforeFairness`).
  case fairYields
  /// Work that slept or read the clock was taken to run on time: runs in which such work was
  /// delayed past a timer fired early stopped where it read the clock, and what would have followed
  /// was not judged (`SchedulerConfiguration.earlyTimerFirings`).
  case timedWorkRanOnTime
  /// The reduced search took pairs of steps as independent without seeing what they share
  /// (`ExploreConfiguration.assumesNoUnseenSharing`).
  case noUnseenSharing
  /// Plain tasks (`Task {}`, `Task.detached {}`) ran without the scheduler as their executor
  /// preference, as where `RuntimeMechanism.executorAdoption` is off (see
  /// `RuntimeCapabilities.current`): such a task can hop between idle actors within one step, so
  /// orders in which other tasks run between those hops are in no schedule explored.
  case plainTasksHoppedWithinSteps
  /// This process cannot see the locks steps take (`RuntimeCapabilities.seesLocks` is false, as
  /// off 64-bit Linux): critical sections of an `NSLock`, a `pthread_mutex_t` or a
  /// `pthread_rwlock_t`, and, outside instrumented code, of a `Mutex` and atomic operations, if
  /// the program takes any, ran whole, and no claim can say whether it did.
  case locksUnseen

  /// The setting that removes the assumption, or what to do where no setting does.
  public var setting: String {
    switch self {
    case .uncontrolledLocksRanWhole:
      "configuration.scheduler.pausesBetweenCriticalSections = true, or pausesAtUncontrolledLocks = true, or EffectLock and EffectMutex"
    case .synchronizationRanWhole:
      "build the code under test instrumented (swiftSettings: [.unsafeFlags([\"-Xfrontend\", \"-sanitize=thread\"])]), or EffectMutex and EffectAtomic"
    case .outsideWorkTookPart:
      "run that work under the scheduler (tasks, Task.sleep, effects) instead of threads, dispatch queues or real timers"
    case .fairYields:
      "configuration.scheduler.yieldsBeforeFairness = nil (a search of a loop that spins forever then never ends)"
    case .timedWorkRanOnTime:
      "configuration.scheduler.earlyTimerFirings = 0, under which timers fire only when no job is ready"
    case .noUnseenSharing:
      "configuration.assumesNoUnseenSharing = false"
    case .plainTasksHoppedWithinSteps:
      "Task.effect in place of Task {}, or a platform where RuntimeCapabilities.current verifies executor adoption (64-bit Linux)"
    case .locksUnseen:
      "EffectLock, EffectMutex and EffectAtomic in place of other locks, or a platform where RuntimeCapabilities.current sees locks (64-bit Linux)"
    }
  }

  /// What the assumption says, in a few words.
  public var description: String {
    switch self {
    case .uncontrolledLocksRanWhole:
      "steps took an NSLock, pthread_mutex_t or pthread_rwlock_t, which the scheduler does not control: races inside their critical sections, or between two of them in one step, are in no schedule"
    case .synchronizationRanWhole:
      "steps made objects holding a Mutex, an Atomic or another noncopyable value in code not built instrumented: their critical sections and atomic operations, if any, ran whole"
    case .outsideWorkTookPart: "work from threads outside the scheduler took part when it happened to"
    case .fairYields: "the fairness rule held back tasks that kept yielding without progress"
    case .timedWorkRanOnTime: "work that slept or read the clock ran on time (runs that delayed it were not judged past that point)"
    case .noUnseenSharing: "steps share nothing the scheduler does not see"
    case .plainTasksHoppedWithinSteps:
      "plain tasks hopped between idle actors within one step, as executor adoption is off: no task ran between those hops"
    case .locksUnseen:
      "this process cannot see the locks steps take: critical sections of an NSLock, a pthread lock or a Mutex, and atomic operations, if any, ran whole"
    }
  }

  /// `<what it says> (removed by <setting>)`, as the summary and the warning of a pass name it.
  var withItsSetting: String { "\(self) (removed by \(setting))" }

  /// In declaration order.
  public static func < (lhs: Self, rhs: Self) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}
