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
  /// runtime records it, the deadlock is reported at once. A task that waits on anything else
  /// (a continuation, which any thread may resume, an `AsyncStream`, an actor or executor busy
  /// elsewhere, a task group) keeps the timed wait, as does every run where the runtime's record
  /// cannot be read (it is read on 64-bit Linux, with the runtime layout of Swift 6.3). Work
  /// announced by the test machinery (`withTestHandler`'s script) is waited for without a limit.
  public var outsideWorldTimeout: Duration
  /// The most steps one run may take before it fails as a possible livelock.
  public var maxSteps: Int

  /// Creates a configuration; the defaults suit unit tests.
  public init(outsideWorldTimeout: Duration = .seconds(1), maxSteps: Int = 1_000_000) {
    self.outsideWorldTimeout = outsideWorldTimeout
    self.maxSteps = maxSteps
  }
}
