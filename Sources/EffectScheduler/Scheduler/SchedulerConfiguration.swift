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
  /// scheduler took part in is reported after a moment (see ``reportsDeadlocksAtOnce``). Other
  /// runs keep the timed wait: those where something came back from outside, a thread began, a
  /// task waits for an executor or a task the scheduler does not run, and, off Linux, every run.
  /// Work announced by the test machinery (`withTestHandler`'s script) is waited for without a
  /// limit.
  public var outsideWorldTimeout: Duration
  /// Whether a run that nothing outside the scheduler took part in, and in which no task can go
  /// on, is reported as a deadlock after a moment (2 ms) rather than after
  /// ``outsideWorldTimeout``. Such a run is one where nothing came back from another thread, no
  /// thread of the process began since the run did (read from `/proc` on Linux), no work is
  /// announced or due on the virtual clock, and no task waits for an executor or a task the
  /// scheduler does not run. A program that hands its continuations to threads that existed before
  /// the run, such as a dispatch queue's workers or an event loop's, and has them resumed later,
  /// should set this to `false`: its stuck runs then wait `outsideWorldTimeout` for them.
  public var reportsDeadlocksAtOnce: Bool
  /// The most steps one run may take before it fails as a possible livelock.
  public var maxSteps: Int

  /// Creates a configuration; the defaults suit unit tests.
  public init(outsideWorldTimeout: Duration = .seconds(1), maxSteps: Int = 1_000_000, reportsDeadlocksAtOnce: Bool = true) {
    self.outsideWorldTimeout = outsideWorldTimeout
    self.maxSteps = maxSteps
    self.reportsDeadlocksAtOnce = reportsDeadlocksAtOnce
  }
}
