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
  public var outsideWorldTimeout: Duration
  /// The most steps one run may take before it fails as a possible livelock.
  public var maxSteps: Int

  /// Creates a configuration; the defaults suit unit tests.
  public init(outsideWorldTimeout: Duration = .seconds(1), maxSteps: Int = 1_000_000) {
    self.outsideWorldTimeout = outsideWorldTimeout
    self.maxSteps = maxSteps
  }
}
