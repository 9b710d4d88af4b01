/// What the library needs from the test framework that runs it: recording an issue at a place in
/// the test's source, and gathering the issues a piece of code records.
///
/// Only the `ExploreTesting` module, which imports Swift Testing, conforms to it, so
/// that the library modules link no test framework into production code.
package protocol TestFrameworkBridge: Sendable {
  init()

  /// Records `report` as a warning at `site` on the Swift Testing test running in the current
  /// task, if any, shown as the test framework shows a caught error, so that the issue's first
  /// line is the report's first line; returns whether it did. A failure thrown with it is what
  /// fails the test, unless the caller expected it and caught it (`#expect(throws:)`,
  /// `requireFailure`).
  func recordWarning(_ report: String, at site: CallSite) async -> Bool

  /// Whether issues recorded in this task can be gathered with ``gatherIssues(during:)``.
  var canGatherIssues: Bool { get }

  /// Runs `body` and returns, instead of recording them on the test, the issues it recorded (each
  /// described with its place), with the error it threw.
  func gatherIssues(during body: @escaping @Sendable () async throws -> Void) async -> (issues: [String], error: (any Error)?)
}

/// The test framework running this process, found at run time.
package enum TestFramework {
  /// The bridge of the `ExploreTesting` module, when the process links it.
  ///
  /// It is found by its mangled type name, which the runtime looks up in the type metadata of
  /// every loaded image: a `swift test` binary on Linux links the test targets and their
  /// dependencies statically and exports none of their symbols, so `dlsym` cannot see them, but
  /// their type metadata is always there.
  package static let bridge: (any TestFrameworkBridge)? = {
    (_typeByName(bridgeTypeName) as? any TestFrameworkBridge.Type)?.init()
  }()

  /// `ExploreTesting.TestFrameworks`, mangled.
  static let bridgeTypeName = "14ExploreTesting14TestFrameworksV"

  /// Whether failures thrown in this task are expected by the code that called, which then
  /// checks them itself, so they are not recorded as issues.
  @TaskLocal package static var failuresAreExpected = false

  /// Records `report` (a failure's report about to be thrown, or what a pass rests on) as a
  /// warning at `site`, unless failures are expected here; returns whether it did. Its first line
  /// is the issue's first line.
  @discardableResult
  package static func recordWarning(_ report: String, at site: CallSite) async -> Bool {
    guard !failuresAreExpected, let bridge else { return false }
    return await bridge.recordWarning(report, at: site)
  }
}

extension DeterministicScheduler {
  /// Notes an issue the test framework recorded in the calling code, when a run's step runs it:
  /// a run that is cut short before its body ends (``SchedulerConfiguration/earlyTimerFirings``)
  /// is still judged by it.
  package static func noteIssueRecordedByCallingCode(_ description: String) {
    guard let scheduler = controllingCallingThread, scheduler.trail.issueRecorded == nil else { return }
    scheduler.trail.issueRecorded = description
  }
}
