#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import Dispatch
import InstrumentationEntryPoints
import Synchronization

/// A thread that can run a scheduler's drive loop and its jobs, and is parked whenever another
/// thread does: a job paused in synchronous code keeps its thread, so the loop goes on on another
/// (see DeterministicScheduler+Pausing.swift). At most one of a run's threads is ever unparked.
final class HostThread: @unchecked Sendable {
  /// What a parked thread is woken to do.
  enum Order {
    /// Go on with the drive loop, after the step another thread has ended.
    case drive
    /// Go on with the job paused on this thread.
    case resume
    /// Go on with the job paused on this thread outside the scheduler's control, lent to a
    /// cancellation handler, until it lets go of the lock the handler waits for
    /// (``HostThread/goesOnUntilRelease``), then park again (see LockPauses.swift).
    case goOnUntilRelease
    /// The run is over: a paused job goes on uncontrolled, an idle loop ends.
    case runIsOver
  }

  private let signal = DispatchSemaphore(value: 0)
  /// Written by the waking thread before it signals, read by this one after it wakes.
  private var order = Order.drive
  /// Whether this thread is awake, waiting on `signal`, or woken and not yet gone on: a thread
  /// woken soon after it parks, as a paused job picked at the next step is, sees it while it spins
  /// and goes on without the kernel's help.
  private let state = Atomic<Int>(HostThread.awake)
  private static let awake = 0
  private static let waiting = 1
  private static let woken = 2
  /// How many times a parking thread looks for its wake-up before it sleeps: about as long as
  /// the kernel takes to wake a sleeping thread.
  private static let spins = 8_000
  /// The scheduler a pool thread is lent to, while it is.
  var scheduler: DeterministicScheduler?
  /// Whether the job paused on this thread was let go when its run ended.
  var isOrphan = false
  /// The locks this thread took through the program's slots under a scheduler that pauses at
  /// them (``SchedulerConfiguration/pausesAtUncontrolledLocks``) and has not let go, by address,
  /// each with whether a job of the run that finds it held by this thread's paused job waits for
  /// it, paused: a `pthread_mutex_t` or `pthread_rwlock_t` of the program's, whose holders the run
  /// can tell (see LockPauses.swift).
  var heldLocks: [(address: UInt, waitedFor: Bool)] = []
  /// The lock this thread's paused job, lent to a cancellation handler that waits for it, goes on
  /// until it lets go of, while it does (see LockPauses.swift).
  var goesOnUntilRelease: UInt?
  /// The acquire of an uncontrolled lock this thread's paused job waits to make, while it does:
  /// let go when its run ends, it would make it at once (see ``OrphanedJobs``).
  var waitsFor: LockAcquire?
  /// The read–write locks this thread took for reading through the program's slots and has not
  /// let go of, which glibc does not record (``LockAcquire``); emptied when the thread begins a
  /// run's loop.
  var readLocks: [UInt] = []

  /// Whether a job that finds any lock this thread holds held waits for it, paused: then this
  /// thread's job may pause holding them.
  var holdsOnlyLocksWaitedFor: Bool { heldLocks.allSatisfy(\.waitedFor) }
  /// The paused jobs let go after their run ended, while this thread's is one of them.
  var orphans: OrphanedJobs?
  /// The locks whose acquires this thread's job, going on after its run ended, skipped, and has
  /// not let go of (see LockPauses.swift).
  var skippedLocks: [UInt] = []
  /// The kernel's id of this thread on Linux, which a held `pthread_mutex_t` records; set once it
  /// runs.
  private(set) var kernelID: Int32 = -1
  /// This thread's identity, as ``ThreadIdentity/current`` gives it; set once it runs.
  private(set) var identity: UInt = 0

  init(identity: UInt = 0) {
    self.identity = identity
  }

  /// Parks the calling thread, which must be this one, until it is woken; returns why.
  func park() -> Order {
    parkUnlessIdle(leaving: nil) ?? .runIsOver
  }

  /// Parks the calling thread, which must be this one, until it is woken, and returns why; or,
  /// with `leaving`, once it has slept that long without being woken, and `leaving` says it may
  /// go (no thread will wake it), returns `nil`.
  private func parkUnlessIdle(leaving: (idleFor: DispatchTimeInterval, mayLeave: () -> Bool)?) -> Order? {
    for spin in 0..<Self.spins {
      if state.compareExchange(expected: Self.woken, desired: Self.awake, ordering: .acquiringAndReleasing).exchanged { return order }
      // Threads with work to do come first.
      if spin % 4 == 3 { sched_yield() }
    }
    if state.compareExchange(expected: Self.awake, desired: Self.waiting, ordering: .acquiringAndReleasing).exchanged {
      if let leaving {
        while signal.wait(timeout: .now() + leaving.idleFor) == .timedOut {
          guard leaving.mayLeave() else { continue }
          state.store(Self.awake, ordering: .releasing)
          return nil
        }
      } else {
        signal.wait()
      }
    }
    // Woken: by the signal, or between the last look and the announcement of the wait.
    state.store(Self.awake, ordering: .releasing)
    return order
  }

  /// Parks a pool thread, which must be the calling one, until it is lent and woken; returns
  /// `nil` once it has waited in the pool for a few seconds unlent, and left it: a process whose
  /// explorations paused many jobs at once keeps no more threads than it needs now.
  fileprivate func parkInPool() -> Order? {
    parkUnlessIdle(leaving: (.seconds(2), { HostThread.leavePool(self) }))
  }

  /// Wakes this thread, parked or about to park, with `order`.
  func wake(_ order: Order) {
    self.order = order
    if state.exchange(Self.woken, ordering: .acquiringAndReleasing) == Self.waiting { signal.signal() }
  }

  /// The host thread the calling thread is, if it is one.
  static var current: HostThread? {
    guard let pointer = pthread_getspecific(key) else { return nil }
    return Unmanaged<HostThread>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// Makes `host` the calling thread's host, kept alive for as long as it is.
  static func setCurrent(_ host: HostThread?) {
    host?.identity = ThreadIdentity.current
    #if os(Linux)
      host?.kernelID = Int32(truncatingIfNeeded: ThreadCensus.ownThreadID() ?? -1)
    #endif
    let previous = pthread_getspecific(key)
    pthread_setspecific(key, host.map { UnsafeRawPointer(Unmanaged.passRetained($0).toOpaque()) })
    if let previous { Unmanaged<HostThread>.fromOpaque(previous).release() }
  }

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    // A thread that ends lets go of its host.
    #if canImport(Darwin)
      pthread_key_create(&key) { Unmanaged<HostThread>.fromOpaque($0).release() }
    #else
      pthread_key_create(&key) { pointer in
        if let pointer { Unmanaged<HostThread>.fromOpaque(pointer).release() }
      }
    #endif
    return key
  }()

  // MARK: The pool

  /// The pool threads waiting to be lent to a scheduler.
  private static let idle = IdleThreads<HostThread>()

  /// A pool thread lent to `scheduler`, parked: woken with ``Order/drive``, it goes on with the
  /// scheduler's loop, and comes back to the pool when the loop is over for it.
  static func lend(to scheduler: DeterministicScheduler) -> HostThread {
    let host = idle.take() ?? startPoolThread()
    host.scheduler = scheduler
    host.heldLocks.removeAll()
    host.goesOnUntilRelease = nil
    host.waitsFor = nil
    host.readLocks.removeAll()
    return host
  }

  private static func startPoolThread() -> HostThread {
    let host = HostThread()
    let box = Unmanaged.passRetained(host)
    // Started through the real `pthread_create`, so no run counts it among the threads it started.
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    pthread_attr_setstacksize(&attributes, 8 << 20)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    #if os(Linux)
      var thread = pthread_t()
      let started = realCreate(&thread, &attributes, poolThreadMain, box.toOpaque())
    #else
      var thread: pthread_t?
      let started = pthread_create(&thread, &attributes, poolThreadMain, box.toOpaque())
    #endif
    pthread_attr_destroy(&attributes)
    precondition(started == 0, "EffectScheduler could not start a thread to go on with a paused run (error \(started))")
    return host
  }

  #if os(Linux)
    private typealias Create = @convention(c) (
      UnsafeMutablePointer<pthread_t>, UnsafePointer<pthread_attr_t>?,
      @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?, UnsafeMutableRawPointer?
    ) -> Int32
    private static let realCreate: Create = runtimeFunction("pthread_create") ?? { thread, attributes, start, argument in
      pthread_create(thread, attributes, start, argument)
    }
  #endif
}

/// What a pool thread runs: lent out, woken, it drives its scheduler until the loop is over for
/// it, and waits in the pool again.
#if canImport(Darwin)
  private func poolThreadMain(_ argument: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    runPoolThread(argument)
  }
#else
  private func poolThreadMain(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    runPoolThread(argument!)
  }
#endif

private func runPoolThread(_ argument: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
  let host = Unmanaged<HostThread>.fromOpaque(argument).takeRetainedValue()
  HostThread.setCurrent(host)
  ThreadCensus.asDriverThread {
    while true {
      guard let order = host.parkInPool() else { return }
      // What the thread was handed while it waited in the pool is no run's step's.
      instrumentation_discard_pending_allocations()
      if let scheduler = host.scheduler, order == .drive { scheduler.driveAsLentThread(host) }
      host.scheduler = nil
      HostThread.returnToPool(host)
    }
  }
  return nil
}

extension HostThread {
  fileprivate static func returnToPool(_ host: HostThread) {
    idle.add(host)
  }

  /// Takes `host` out of the pool, if it is there: then no thread will lend, or wake, it.
  fileprivate static func leavePool(_ host: HostThread) -> Bool {
    idle.leave(host)
  }
}

/// A number that tells threads apart: the `pthread_t` of the calling thread.
enum ThreadIdentity {
  static var current: UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }
}
