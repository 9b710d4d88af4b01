import EffectScheduler

/// An issue the explored body recorded with the test framework, such as a failed `#expect` or
/// `#require`: it fails the schedule it was recorded in, as a thrown error does.
///
/// `explore` gathers these only when the test target links `ExploreTesting` and Swift Testing
/// runs the test. Each is recorded on the test only through the exploration's own report, once,
/// rather than once a schedule.
public struct RecordedIssue: Error, Sendable, CustomStringConvertible {
  /// The issue as the test framework describes it, with its place: for a failed expectation, the
  /// expression and the values it saw, such as `Expectation failed: (total → 50) == 100 (Bank.swift:12:5)`.
  public var description: String

  /// `body`, made to fail with the first issue it records; `body` itself when the running test
  /// framework cannot hand the issues over.
  static func failingOnIssues(_ body: @escaping @Sendable () async throws -> Void) -> @Sendable () async throws -> Void {
    guard let bridge = TestFramework.bridge, bridge.canGatherIssues else { return body }
    return {
      let (issues, error) = await bridge.gatherIssues(during: body)
      // A failed `#require` records its issue and then throws; the issue says more.
      if let first = issues.first { throw RecordedIssue(description: first) }
      if let error { throw error }
    }
  }
}
