/// What the run notes of the locks its steps take, and of the pauses at them: the scheduler's
/// own, and those it does not control (see LockPauses.swift).
package struct LockWatch {
  /// Whether the run notes the locks each step took: when it watches hidden accesses, or only
  /// locks (``StrategyReference/watchesLocks``).
  var watchedLocks = false
  /// The locks steps took, by step, each numbered in the order the run first took it.
  var lockTouches: [LockTouch] = []
  /// The number of each lock a step took, or -1 for one that guards nothing tasks share.
  var lockNumbers: [UInt: Int] = [:]
  /// For each uncontrolled mutex a job waited for, paused, while a paused job of the run held it
  /// (LockPauses.swift): the record its waiters wait on, as on a drop-in's.
  var uncontrolledLockStandIns: [UInt: ControlledLock] = [:]
  /// For each `Mutex` word a job waits for, paused, while a paused job holds it: the holder's
  /// thread number, which the word holds until the holder lets go
  /// (DeterministicScheduler+InstrumentedAtomics.swift).
  var heldWords: [UInt: Int32] = [:]
  /// Whether each atomic word a run touched lies in a loaded image's static data, kept from run
  /// to run: such a word (a lazily made global, a type's metadata cache) is no scheduling point.
  /// Each run's heap words are new ones, so it is emptied once it holds many.
  var staticWords: [UInt: Bool] = [:]
  /// The thread of a cancellation handler that lent its turn to a paused job, parked until the
  /// job lets go of the mutex the handler waits for (LockPauses.swift).
  var lentTurnWaiter: HostThread?
  var nextLockNumber = 0
  /// The last step that took a lock the scheduler does not control; see
  /// ``SchedulerConfiguration/pausesBetweenCriticalSections``.
  var stepThatTookAProgramLock = -1
  /// The last step that made another task ready (started it, resumed it) that may run before the
  /// step ends: a critical section after that is no step's first, which could move to the step's
  /// start, since the task may run before it.
  var stepThatMadeATaskReady = -1
  /// Whether a step of a watching run took a lock through Foundation's slots or the program's own
  /// (an `NSLock`, a `pthread_mutex_t`, a `pthread_rwlock_t`): a lock the scheduler does not
  /// control, whose critical sections no schedule splits.
  package internal(set) var tookUncontrolledLocks = false
  /// The pauses of the run's jobs at locks, which the trace names.
  var lockPauses: [LockPause] = []
  /// Whether a step made an object that holds a noncopyable value, a `Mutex` or an `Atomic`
  /// perhaps, whose synchronization no schedule splits outside instrumented code
  /// (ObjectAllocations.swift).
  var madeNoncopyableHolders = false

  /// Forgets the locks the run took and the pauses at them, keeping the storage, for another run.
  mutating func clear() {
    stepThatTookAProgramLock = -1
    stepThatMadeATaskReady = -1
    tookUncontrolledLocks = false
    madeNoncopyableHolders = false
    if !uncontrolledLockStandIns.isEmpty { uncontrolledLockStandIns.removeAll() }
    if !heldWords.isEmpty { heldWords.removeAll() }
    if staticWords.count > 4_096 { staticWords.removeAll(keepingCapacity: true) }
    if !lockNumbers.isEmpty {
      lockTouches.removeAll(keepingCapacity: true)
      lockNumbers.removeAll(keepingCapacity: true)
      nextLockNumber = 0
    }
    if !lockPauses.isEmpty { lockPauses.removeAll(keepingCapacity: true) }
  }

  /// Lets go of the storage a cut run's locks filled, which may be large.
  mutating func releaseStorage() {
    lockPauses = []
    lockTouches = []
    lockNumbers = [:]
    uncontrolledLockStandIns = [:]
    heldWords = [:]
  }
}
