#if canImport(Glibc)
  import Glibc
#endif
import Synchronization

// A stuck run whose tasks wait on a continuation may have handed it to a thread it started, which
// can still resume it: the run waits while such a thread lives. Which threads the run started is
// told by the `pthread_create` slots of Foundation (`Thread.start()`) and of the image the program
// is linked into, pointed on Linux at a function that, on a driver thread while it drives (or on
// a thread such a run started), starts the new thread through a trampoline that enrols it in the
// run's threads. Threads other tests or libraries start meanwhile are not the run's, and never
// hold its report back. Where the slots cannot be found, the census of threads begun during the
// run stands in (ThreadCensus).

/// The threads one run's code started, directly or through threads it started, and whether they
/// handed work to Dispatch.
final class RunThreads: Sendable {
  private let state = Mutex<(starting: Int, threads: [Int], handedWorkToDispatch: Bool)>((0, [], false))

  /// Whether a thread of the run may still be running: one is starting, or one that began lives.
  var anyAlive: Bool {
    #if os(Linux)
      let (starting, threads) = state.withLock { ($0.starting, $0.threads) }
      return starting > 0 || threads.contains { access("/proc/self/task/\($0)", F_OK) == 0 }
    #else
      return true
    #endif
  }

  /// Whether a thread of the run handed work to Dispatch, which may run after the thread has
  /// ended (DispatchHandOffs.swift): such work is outside the run as a hand-off by its driver is.
  var handedWorkToDispatch: Bool { state.withLock { $0.handedWorkToDispatch } }

  fileprivate func noteHandOffToDispatch() { state.withLock { $0.handedWorkToDispatch = true } }

  fileprivate func willStart() { state.withLock { $0.starting += 1 } }

  fileprivate func started(_ thread: Int?) {
    state.withLock { state in
      state.starting -= 1
      if let thread { state.threads.append(thread) }
    }
  }

  fileprivate func failedToStart() { state.withLock { $0.starting -= 1 } }

  /// Whether the threads each run starts are known on this platform (64-bit Linux): otherwise a
  /// census of the threads begun during a run stands in.
  static var areKnown: Bool { !redirections.isEmpty }

  /// The `pthread_create` slots, pointed at the enrolling function the first time it is read,
  /// which the first run does.
  static let redirections: SlotRedirections = {
    #if os(Linux) && _pointerBitWidth(_64)
      guard realCreate != nil else { return SlotRedirections([]) }
      let replacement = unsafeBitCast(create, to: UnsafeRawPointer.self)
      var slots = ImportedFunctionSlot.slots(of: "pthread_create", inLibraryDefining: "$s10Foundation6NSLockC4lockyyF")
      slots += ImportedFunctionSlot.slots(of: "pthread_create", inLibraryContaining: replacement)
      return SlotRedirections(Set(slots).map { ($0, replacement) })
    #else
      return SlotRedirections()
    #endif
  }()

  #if os(Linux) && _pointerBitWidth(_64)
    private typealias Create = @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32
    private typealias Start = @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?
    private static let realCreate: Create? = runtimeFunction("pthread_create")

    /// The threads started by runs' threads, with the run each belongs to, so that the threads
    /// they start belong to it too; and how many there are, read without the lock.
    private static let startedByRuns = Mutex<[Int: RunThreads]>([:])
    private static let threadsStartedByRuns = Atomic<Int>(0)

    /// What a thread a run starts runs first: the thread's own start, and the run it belongs to.
    private final class Launch {
      let run: RunThreads
      let start: Start
      let argument: UnsafeMutableRawPointer?
      init(run: RunThreads, start: Start, argument: UnsafeMutableRawPointer?) {
        self.run = run
        self.start = start
        self.argument = argument
      }
    }

    /// Notes that the calling thread, if a run started it, handed work to Dispatch.
    static func noteHandOffToDispatchByCallingThread() {
      guard threadsStartedByRuns.load(ordering: .relaxed) > 0, let me = ThreadCensus.ownThreadID() else { return }
      startedByRuns.withLock { $0[me] }?.noteHandOffToDispatch()
    }

    /// The run whose code the calling thread runs: the one it drives, or the one that started it.
    private static func runOfCallingThread() -> RunThreads? {
      if RuntimeHooks.runsUnderWay.load(ordering: .relaxed) > 0, let scheduler = DrivingThread.scheduler, scheduler.isDriving {
        return scheduler.runThreads
      }
      guard threadsStartedByRuns.load(ordering: .relaxed) > 0, let me = ThreadCensus.ownThreadID() else { return nil }
      return startedByRuns.withLock { $0[me] }
    }

    private static let create: Create = { thread, attributes, start, argument in
      guard let start, let run = runOfCallingThread() else { return realCreate!(thread, attributes, start, argument) }
      run.willStart()
      let launch = Unmanaged.passRetained(Launch(run: run, start: unsafeBitCast(start, to: Start.self), argument: argument))
      let result = realCreate!(thread, attributes, unsafeBitCast(trampoline, to: UnsafeRawPointer.self), launch.toOpaque())
      if result != 0 {
        launch.release()
        run.failedToStart()
      }
      return result
    }

    private static let trampoline: Start = { opaque in
      let launch = Unmanaged<Launch>.fromOpaque(opaque!).takeRetainedValue()
      let me = ThreadCensus.ownThreadID()
      if let me {
        startedByRuns.withLock { $0[me] = launch.run }
        threadsStartedByRuns.add(1, ordering: .relaxed)
      }
      launch.run.started(me)
      defer {
        if let me {
          startedByRuns.withLock { $0[me] = nil }
          threadsStartedByRuns.subtract(1, ordering: .relaxed)
        }
      }
      return launch.start(launch.argument)
    }
  #endif
}
