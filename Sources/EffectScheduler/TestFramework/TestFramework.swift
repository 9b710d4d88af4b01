/// What the library needs from the test framework that runs it: recording an issue at a place in
/// the test's source, and gathering the issues a piece of code records.
///
/// Only the `ExploreTesting` module, which imports Swift Testing and XCTest, conforms to it, so
/// that the library modules link no test framework into production code.
package protocol TestFrameworkBridge: Sendable {
  init()

  /// Records `message` as an issue at `site` on the test running in the current task, if any;
  /// returns whether one took it.
  func recordIssue(_ message: String, at site: CallSite) -> Bool

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

  /// Records `message` as an issue at `site`, unless failures are expected here; returns whether
  /// a running test took it.
  package static func recordIssue(_ message: String, at site: CallSite) -> Bool {
    guard !failuresAreExpected, let bridge else { return false }
    return bridge.recordIssue(message, at: site)
  }
}
