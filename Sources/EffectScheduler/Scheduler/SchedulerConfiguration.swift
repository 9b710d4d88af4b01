/// The knobs of a ``DeterministicScheduler`` run.
///
/// ```swift
/// var configuration = SchedulerConfiguration()
/// configuration.outsideWorldTimeout = .milliseconds(200)
/// let execution = try await DeterministicScheduler.run(configuration: configuration) { … }
/// ```
public struct SchedulerConfiguration: Hashable, Sendable {
  /// How long the scheduler waits, when no controlled job is ready, for work handed back from
  /// outside its control (a continuation resumed on another thread, a real timer, the main actor)
  /// before it gives up and reports a deadlock or a stall. It is never waited out while jobs are
  /// ready.
  ///
  /// Nor is it waited out when nothing outside can end the wait: when every unfinished task waits
  /// on another unfinished task of the run (`await other.value`, an `async let`), as the
  /// runtime records it, the deadlock is reported at once. And a run that nothing outside the
  /// scheduler took part in is reported after a glance of 2 ms once no thread it started lives
  /// (see ``reportsDeadlocksAtOnce``). Other runs keep the timed wait: those where something came
  /// back from outside or was handed to Dispatch, a task waits for an executor or a task the
  /// scheduler does not run, and, off Linux, every run. Work announced by the test machinery
  /// (`withTestHandler`'s script) is waited for without a limit.
  public var outsideWorldTimeout: Duration
  /// Whether a run that nothing outside the scheduler took part in, and in which no task can go
  /// on, is reported as a deadlock at once (after a glance of 2 ms) rather than after
  /// ``outsideWorldTimeout``, once no thread of the run is alive.
  ///
  /// Such a run is one where nothing came back from another thread, nothing was handed to
  /// Dispatch (`DispatchQueue.async`, `asyncAfter`, a source's `resume()`, by a task or by a
  /// thread the run started), no work is announced or due on the virtual clock, and no task waits
  /// for an executor or a task the scheduler does not run. Its report waits, at most
  /// `outsideWorldTimeout`, while a thread of the run lives: on 64-bit Linux each thread the run's
  /// code starts (`Thread`, `pthread_create`) and each thread those start; where those cannot be
  /// told, any thread of the process begun since the run did (read from `/proc`). Where the run's
  /// hand-offs to Dispatch cannot be seen (the Swift Dispatch overlay's slots are read on 64-bit
  /// Linux), a task waiting on a continuation first gets 250 ms, which a dispatch queue's thread
  /// from before the run may be about to resume. Off Linux every stuck run waits out the timeout.
  ///
  /// A program that hands its continuations to threads that existed before the run other than
  /// through the Swift Dispatch overlay, such as an event loop's or a C library's, and has them
  /// resumed later, should set this to `false`: its stuck runs then wait `outsideWorldTimeout` for
  /// them.
  public var reportsDeadlocksAtOnce: Bool
  /// The most steps one run may take before it fails as a possible livelock.
  public var maxSteps: Int
  /// How many steps a run takes in the order the strategy picks before each step runs the job
  /// ready longest instead (a due timer first); `nil` for no limit.
  ///
  /// Past it scheduling is fair, as in Coyote past its bound of unfair steps: a strategy that
  /// keeps a ready task waiting while others make work, as PCT does with a task whose priority it
  /// lowered, would otherwise make a program that only needs that task to run, say a loop
  /// advancing a test clock until a sleeper wakes, look like a livelock. A run that goes on past
  /// the bound with more than one job ready notes that the orders of its later steps were not
  /// all explored, so an exploration does not claim every schedule; one that reaches
  /// ``maxSteps`` is a livelock under fair scheduling too.
  public var stepsBeforeFairness: Int?
  /// How many of a task's `Task.yield()`s may be followed by that task running again before the
  /// other tasks that were ready when it yielded; `nil` for no limit.
  ///
  /// Beyond it scheduling is fair, as in CHESS's fair stateless model checking: a task that
  /// yields is not picked again while a task that was ready when it yielded, and has not run
  /// since, is still ready. So a task spinning on `Task.yield()` until another sets a flag or
  /// cancels it lets that task run, under every strategy, and an exhaustive search of it ends;
  /// schedules that keep picking a yielding task over waiting ones are not explored past the
  /// bound. When only yielding tasks are held back and a sleep is due, the virtual clock moves
  /// on, as time passes while a task spins; so it does when a task spins alone, once it has
  /// yielded 16 times more than this bound.
  public var yieldsBeforeFairness: Int?
  /// How many times one run may fire its earliest pending timer while jobs are ready; `0`, the
  /// default of a single run, lets the clock move only when no job is ready. An exploration's
  /// default configuration (`ExploreConfiguration`) sets it to `1`.
  ///
  /// A real runtime delays ready tasks (a busy pool, a slow callee), so a timeout may fire before
  /// the work it guards, even work that never sleeps. Wherever a timer is pending and jobs are
  /// ready, and the run has fired fewer timers early than this, the strategy is offered one more
  /// choice beside the ready jobs: ``ReadyJob/timer``, which moves the virtual clock to the
  /// earliest deadline and wakes the sleeps due then (`t` in a schedule string). The bound keeps
  /// every search finite. Runs with no timer pending are unaffected; runs with one get more
  /// schedules, and the reduced search tries every option of such runs.
  ///
  /// Timed work is taken to run on time, as tests of timed code assume: the choice is not offered
  /// while a task that has read the clock or slept is ready, and a run in which a task so delayed
  /// then reads the clock or sleeps is stopped at that step and not judged
  /// (``SchedulerError/Reason/cutShort(step:)``).
  ///
  /// ```swift
  /// var configuration = SchedulerConfiguration()
  /// configuration.earlyTimerFirings = 1
  /// let execution = try await DeterministicScheduler.run(strategy: .random(seed: 3), configuration: configuration) {
  ///   try await fetchWithTimeout()
  /// }
  /// ```
  public var earlyTimerFirings: Int
  /// How long one job may run without returning before the scheduler prints a warning that it
  /// may block its thread; `nil` for none.
  ///
  /// The scheduler runs one job at a time, so a job that blocks its thread (a
  /// `DispatchSemaphore.wait()`, a condition variable, a loop polling a flag without an `await`)
  /// stops the whole run, and nothing that could unblock it runs. Nothing can take the thread
  /// back, so the run hangs, but the warning (on standard error, once a job) names the step and
  /// the task.
  public var blockedJobWarning: Duration? = .seconds(10)
  /// How long one job may run without returning before the call that waits for its run gives up
  /// and fails, naming the step and the task; `nil` for never.
  ///
  /// `explore` and `checkLinearizability` throw their failure then, rather than hang a test run for
  /// good on a job that blocks its thread (see ``blockedJobWarning``). The job's thread cannot be
  /// taken back: it is left as it is, blocked or spinning, until the job returns or the process
  /// ends. (`DeterministicScheduler.run` only warns.)
  public var blockedJobLimit: Duration? = .seconds(30)
  /// Whether each acquire of a lock the scheduler does not control, by the program or Foundation,
  /// is a scheduling point, as the drop-ins' are: an `NSLock` (`lock()`, `try()`,
  /// `lock(before:)`, `withLock`), a `pthread_mutex_t` or a `pthread_rwlock_t` on the heap, on
  /// 64-bit Linux. Other ready jobs may then run before the acquire, so the critical sections of
  /// one step are split, and an order of two tasks' critical sections that real threads produce
  /// (a second consumer of a channel built on a lock registering between the first one's two
  /// critical sections) is in the schedules explored.
  ///
  /// Off by default: every acquire may multiply the schedules, and a library that takes its lock
  /// a few times an operation soon has more than an exhaustive search can try (two consumers of
  /// swift-async-algorithms' `AsyncChannel` fed two values: past 50,000). Search such code with
  /// random or PCT schedules, or keep the program small:
  ///
  /// ```swift
  /// var configuration = ExploreConfiguration()
  /// configuration.scheduler.pausesAtUncontrolledLocks = true
  /// try await explore(.random(schedules: 1_000), configuration: configuration) { … }
  /// ```
  ///
  /// A task that finds a `pthread_mutex_t` (or an `NSLock`) held by a paused task, or a
  /// `pthread_rwlock_t` held in a way that blocks it, waits for it, paused, as for a drop-in held,
  /// so an acquire made while holding such locks is a scheduling point too, and two tasks that take
  /// two locks in opposite orders, or a lock and a drop-in, are reported as a deadlock naming the
  /// locks and their holders; an attempt that fails when the lock is held (`try()`,
  /// `pthread_mutex_trylock`, `pthread_rwlock_trywrlock`) fails then, as it would on real threads.
  /// No acquire is a scheduling point in a cancellation handler, which the runtime runs holding a
  /// lock of its own, nor in the concurrency library itself (a stream's buffer, a group's results),
  /// whose critical sections never split. An exploration's summary says when steps took a lock
  /// without a scheduling point. A cancellation handler that finds a lock held by a paused task lets
  /// that task go on until it lets go of the lock, outside the scheduler's control, and the run stops
  /// there, not judged (an exploration's summary says so), rather than block the run.
  ///
  /// Without the option, no such acquire is a scheduling point, but a task can still pause inside
  /// such a lock's critical section, at a drop-in's scheduling point. A task that finds the lock
  /// held then waits for it, paused, as above, so a lock-order inversion between an `NSLock` and a
  /// drop-in is reported as a deadlock too.
  public var pausesAtUncontrolledLocks = false
  /// Whether each acquire of a lock the scheduler does not control (as in
  /// ``pausesAtUncontrolledLocks``) that follows another critical section of the same step, made
  /// holding no such lock, is a scheduling point: the first critical section of a step runs where
  /// the step does, and other ready jobs may run between it and the next.
  ///
  /// A check in one critical section and an act in a second, with no `await` between (a channel
  /// that sees a waiting receiver, then takes it), is a race on real threads: another task may take
  /// the lock in between. This finds it at a fraction of the cost of a scheduling point at every
  /// acquire: a step that takes a lock once adds no schedule and rests on no assumption, and no job
  /// pauses holding such a lock, so runs go on on their own thread. Off by default: a library that
  /// takes its lock several times a step (swift-async-algorithms' channels) multiplies its
  /// schedules. `explore`'s default portfolio turns it on itself once the schedules without it
  /// have passed, for what is left of its budget. A schedule recorded with it says so
  /// (``Schedule/splitsCriticalSections``), and its replay pauses so whatever this setting.
  /// 64-bit Linux.
  ///
  /// ```swift
  /// var configuration = ExploreConfiguration()
  /// configuration.scheduler.pausesBetweenCriticalSections = true
  /// try await explore(configuration: configuration) { … }
  /// ```
  public var pausesBetweenCriticalSections = false
  /// Whether a run fails when the program's body returns, or throws, while tasks it started are
  /// unfinished for good.
  ///
  /// Once the body returns, the run goes on (timers firing on the virtual clock, work from
  /// outside waited for as usual) until no task can go on; each task still unfinished then fails
  /// the run as leaked (``SchedulerError/Reason/leakedTasks(blocked:stillRunningAfter:)``), the
  /// report naming the task and what it waits on: a continuation no task can resume, a stream
  /// nothing can feed, a lock, another task. A task still running 10,000 steps after the body
  /// returned, a loop that never ends, is reported so too. Set it to `false` for a test
  /// that leaves tasks behind on purpose: the run then ends when the body has returned and no job
  /// is ready, and lists its unfinished unstructured tasks in `Execution.unfinishedTasks`. Read
  /// where the run can read its tasks' status (64-bit Linux); elsewhere no task is reported.
  public var reportsLeakedTasks = true

  /// Mechanisms the runs leave off though their probes verified them, as on a platform without
  /// them: for tests of what such a platform does. Only ``RuntimeMechanism/executorAdoption`` is
  /// left off per run; the others are set once a process.
  package var mechanismsLeftOff: Set<RuntimeMechanism> = []

  /// Creates a configuration; the defaults suit unit tests.
  public init(
    outsideWorldTimeout: Duration = .seconds(1), maxSteps: Int = 1_000_000, reportsDeadlocksAtOnce: Bool = true,
    yieldsBeforeFairness: Int? = 10, earlyTimerFirings: Int = 0, stepsBeforeFairness: Int? = 10_000
  ) {
    self.stepsBeforeFairness = stepsBeforeFairness
    self.outsideWorldTimeout = outsideWorldTimeout
    self.maxSteps = maxSteps
    self.reportsDeadlocksAtOnce = reportsDeadlocksAtOnce
    self.yieldsBeforeFairness = yieldsBeforeFairness
    self.earlyTimerFirings = earlyTimerFirings
  }
}
