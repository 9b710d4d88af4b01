import EffectScheduler
import Foundation

/// Runs `body` under many schedules, from scratch each time, and fails on the first schedule under
/// which it throws, deadlocks, runs past the step cap or behaves nondeterministically.
///
/// Create all state inside `body`, so each schedule starts fresh, and create tasks with
/// `Task.effect`, `async let` or task groups so the scheduler controls them. A thrown error, such as
/// a failed `#require`, fails the schedule. The body inherits the caller's task-local values.
///
/// When the test target links `ExploreTesting` and Swift Testing runs the test, an issue the body
/// records, such as a failed `#expect` or `#require`, fails its schedule too (as a
/// ``RecordedIssue`` that quotes the expectation), and the failure's report is recorded as a
/// warning at this call before the failure is thrown, so it is in the test's output even where
/// the caller catches the failure, as `#expect(throws: ExplorationFailure.self)` does. The warning's
/// first line is the report's: what went wrong. The thrown failure is what fails the test; Swift
/// Testing shows it as that line alone, and where the report is, so the report appears once.
/// Without `ExploreTesting`, a failed `#expect` records its issue on the test once a schedule and
/// the exploration goes on. `requireFailure(ExplorationFailure.self) { try await explore { … } }`
/// from `ExploreTesting` returns the failure and leaves no warning.
///
/// ```swift
/// @Test func transferKeepsTotal() async throws {
///   try await explore(.exhaustive) {
///     let bank = Bank(balances: [100, 0])
///     let a = Task.effect(name: "A") { await bank.transfer(50, from: 0, to: 1) }
///     let b = Task.effect(name: "B") { await bank.transfer(30, from: 1, to: 0) }
///     _ = await (a.value, b.value)
///     try #require(await bank.total == 100)
///   }
/// }
/// ```
///
/// When a schedule fails, the thrown ``ExplorationFailure`` prints the strategy, the schedule
/// number and seed, the schedule string, the trace as a table, and a one-line replay: paste the
/// string into `explore(.replay("…"))`, or set the `EXPLORE_REPLAY` variable it prints and run the
/// test again.
///
/// `EXPLORE_SHARD=i/n` in the environment, or ``ExploreConfiguration/shard``, runs shard `i` of
/// `n` of the search: see ``Shard``. A setting that names no shard fails the call.
///
/// - Returns: what was explored, when no schedule failed.
/// - Throws: ``ExplorationFailure``.
@discardableResult
public func explore(
  _ strategy: ExplorationStrategy = .default,
  configuration: ExploreConfiguration = ExploreConfiguration(),
  fileID: String = #fileID,
  filePath: String = #filePath,
  line: Int = #line,
  column: Int = #column,
  _ body: @escaping @Sendable () async throws -> Void
) async throws(ExplorationFailure) -> ExplorationSummary {
  let location = "\(fileID):\(line)"
  let body = RecordedIssue.failingOnIssues(body)
  let environment = EnvironmentVariables.values(of: ReplayRequest.variable, Shard.environmentVariable)
  let requested = ReplayRequest.schedule(at: location, filePath: filePath, environment: environment)
  if requested == nil, let misplaced = ReplayRequest.misplacement(of: ReplayRequest.variable, at: location, filePath: filePath, environment: environment) {
    FileHandle.standardError.write(Data((misplaced + "\n").utf8))
  }
  let strategy = requested.map(ExplorationStrategy.replay) ?? strategy
  var configuration = configuration
  do {
    configuration.shard = try ShardRequest.shard(configured: configuration.shard, environment: environment)
  } catch {
    throw ExplorationFailure(summary: error.description, location: location, strategy: strategy.description)
  }
  // A replay runs its one schedule whatever the shard.
  if strategy.isReplay { configuration.shard = nil }
  // Every run blocks its thread while it waits on the outside world, so the exploration gets a
  // thread of its own; its runs inherit the test's task-local values. A job that blocks that thread
  // for good fails the call rather than hang it (StalledJobEscape.swift).
  let result = await onDedicatedThread(ifAJobStalls: { [strategy] in
    .failure(ExplorationFailure(summary: $0, location: location, strategy: strategy.description))
  }) { [configuration] in
    let explorer = Explorer(body: body, configuration: configuration, location: location)
    return explorer.explore(strategy)
  }
  let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  do throws(ExplorationFailure) {
    let summary = try result.get()
    if let warning = summary.claim.warning { await TestFramework.recordWarning(warning, at: site) }
    return summary
  } catch {
    var failure = error
    failure.reportRecorded = await TestFramework.recordWarning(error.description, at: site)
    throw failure
  }
}
