import EffectScheduler
import Foundation

/// Checks that `Subject` is linearizable: that whatever mix of its operations runs concurrently,
/// the results are those of some sequential order of the same calls, one that keeps a call after
/// every call that ended before it began. Correct results are those of the subject itself when
/// its calls run one after another on one task.
///
/// It generates scenarios from the seed (a few calls one after another, then 2–3 tasks of 1–4
/// calls each at once, then a few more calls), explores each under the strategy, and checks every
/// schedule's results. On a failure it shrinks the scenario while it still fails and throws a
/// report with the smallest one: each task's calls and results, why no sequential order explains
/// them, the interleaving's trace and a replay line. A deadlock, nondeterminism or a crash of a
/// scenario is reported the same way.
///
/// ```swift
/// try await checkLinearizability(of: { ImageCache() }) { ops in
///   ops.add("image(url)", arguments: ["a", "b"]) { cache, url in await cache.image(url) }
///   ops.add("evict(url)", arguments: ["a", "b"]) { cache, url in await cache.evict(url) }
///   ops.add("count") { cache in await cache.count }
/// }
/// ```
///
/// Under Swift Testing a failure is recorded as an issue at this call before it is thrown.
///
/// - Throws: ``LinearizabilityFailure``.
@discardableResult
public func checkLinearizability<Subject: Sendable>(
  of make: @escaping @Sendable () async -> Subject,
  configuration: LinearizabilityConfiguration = LinearizabilityConfiguration(),
  fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
  _ declare: (LinearizabilityOperations<Subject, Subject>) -> Void
) async throws(LinearizabilityFailure) -> LinearizabilitySummary {
  try await checkLinearizability(
    of: make, model: make, configuration: configuration, fileID: fileID, filePath: filePath, line: line, column: column, declare)
}

/// Checks that `Subject` is linearizable against a sequential specification: the results of
/// `Model`'s operations, run one after another on one task, are the correct ones. See
/// ``checkLinearizability(of:configuration:fileID:filePath:line:column:_:)``.
///
/// ```swift
/// try await checkLinearizability(of: { LockFreeStack() }, model: { StackModel() }) { ops in
///   ops.add("push(x)", arguments: [1, 2]) { stack, x in stack.push(x) } model: { model, x in model.push(x) }
///   ops.add("pop") { stack in stack.pop() } model: { model in model.pop() }
/// }
/// ```
///
/// - Throws: ``LinearizabilityFailure``.
@discardableResult
public func checkLinearizability<Subject: Sendable, Model: Sendable>(
  of make: @escaping @Sendable () async -> Subject,
  model makeModel: @escaping @Sendable () async -> Model,
  configuration: LinearizabilityConfiguration = LinearizabilityConfiguration(),
  fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
  _ declare: (LinearizabilityOperations<Subject, Model>) -> Void
) async throws(LinearizabilityFailure) -> LinearizabilitySummary {
  let declared = LinearizabilityOperations<Subject, Model>()
  declare(declared)
  let location = "\(fileID):\(line)"
  let replay = configuration.replay
    ?? ReplayRequest.value(
      of: LinearizabilityReplay.variable, at: location, filePath: filePath, environment: EnvironmentVariables.values(of: LinearizabilityReplay.variable))
  let check = LinearizabilityCheck(
    make: make, makeModel: makeModel, operations: declared.operations, configuration: configuration, location: location)
  let result = await onDedicatedThread(ifAJobStalls: { .failure(LinearizabilityFailure(summary: $0, location: location)) }) {
    check.run(replay: replay)
  }
  do throws(LinearizabilityFailure) {
    return try result.get()
  } catch {
    var failure = error
    failure.reportRecorded = await TestFramework.recordWarning(
      error.description, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    throw failure
  }
}

/// The environment variable a report's replay line sets.
enum LinearizabilityReplay {
  static let variable = "LINEARIZABILITY_REPLAY"
}
