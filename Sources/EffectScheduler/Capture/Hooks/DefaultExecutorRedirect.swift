#if compiler(>=6.3)
  @_spi(ExperimentalScheduling) @_spi(ExperimentalCustomExecutors) import _Concurrency

  // Since Swift 6.2 every job bound for the global executor ends in `Task.defaultExecutor`: those
  // that go through the runtime's global enqueue, and those the standard library hands to it
  // directly. `Task.yield()` and every sleep do the latter when the task has no executor
  // preference and runs inside a default actor's job, for the runtime runs an actor's job with the
  // executor preference of the task it resumes, which for a plain `Task {}` is none. So the
  // process's default executor is replaced, once, by one that hands the jobs of running schedulers
  // to them and everything else to the platform's executor, exactly as before.

  @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
  enum DefaultExecutorRedirect {
    /// Puts a ``RoutingDefaultExecutor`` in front of the platform's default executor.
    ///
    /// The standard library offers no atomic way to swap it, so this happens once per process,
    /// as the first run starts; the main executor is set again to the value it already has.
    /// Returns whether the router is in place.
    static func install() -> Bool {
      let platform = Task.defaultExecutor
      guard !(platform is RoutingDefaultExecutor) else { return true }
      RoutingDefaultExecutor.shared = RoutingDefaultExecutor(platform: platform)
      _createExecutors(factory: RedirectingFactory.self)
      return Task.defaultExecutor is RoutingDefaultExecutor
    }

    private struct RedirectingFactory: ExecutorFactory {
      static var mainExecutor: any MainExecutor { MainActor.executor }
      static var defaultExecutor: any TaskExecutor { RoutingDefaultExecutor.shared! }
    }
  }

  /// The process's default executor once a run has started: on a thread that drives a scheduler,
  /// jobs and timed jobs go to that scheduler; all others go to the platform's default executor.
  @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
  final class RoutingDefaultExecutor: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    /// Set once, before the executor is installed, and never changed.
    nonisolated(unsafe) static var shared: RoutingDefaultExecutor?

    private let platform: any TaskExecutor
    private let platformScheduling: (any SchedulingExecutor)?

    init(platform: any TaskExecutor) {
      self.platform = platform
      self.platformScheduling = platform as? any SchedulingExecutor
    }

    func enqueue(_ job: consuming ExecutorJob) {
      if RuntimeHooks.runsUnderWay.load(ordering: .relaxed) > 0 {
        let job = UnownedJob(job)
        if !RuntimeHooks.route(job) { platform.enqueue(job) }
      } else {
        platform.enqueue(job)
      }
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
      if let scheduler = drivingScheduler {
        scheduler.enqueue(job, after: delay, tolerance: tolerance, clock: clock)
      } else if let platformScheduling {
        platformScheduling.enqueue(job, after: delay, tolerance: tolerance, clock: clock)
      } else {
        fatalError("the platform's default executor cannot schedule jobs in time")
      }
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
      if let scheduler = drivingScheduler {
        scheduler.enqueue(job, at: instant, tolerance: tolerance, clock: clock)
      } else if let platformScheduling {
        platformScheduling.enqueue(job, at: instant, tolerance: tolerance, clock: clock)
      } else {
        fatalError("the platform's default executor cannot schedule jobs in time")
      }
    }

    /// The scheduler that drives the calling thread and is in the middle of a run, if any.
    private var drivingScheduler: DeterministicScheduler? {
      guard RuntimeHooks.runsUnderWay.load(ordering: .relaxed) > 0, let scheduler = DrivingThread.scheduler,
        scheduler.isDriving
      else { return nil }
      return scheduler
    }
  }
#endif
