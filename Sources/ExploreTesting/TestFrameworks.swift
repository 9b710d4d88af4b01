package import EffectScheduler
import Synchronization
import Testing

/// The library's way into Swift Testing: the library modules find this type by name at
/// run time (see `TestFramework.bridge`), so that only test targets link a test framework.
package struct TestFrameworks: TestFrameworkBridge {
  package init() {}

  package func recordWarning(_ report: String, at site: CallSite) async -> Bool {
    guard let test = Test.current else { return false }
    let location = SourceLocation(fileID: site.fileID, filePath: site.filePath, line: site.line, column: site.column)
    // As an error, not a comment: Swift Testing heads an issue that only comments with
    // "Issue recorded", and the comment below it; a caught error's issue, with its description.
    // Swift Testing records errors only as failures, so a scope of this call makes it a warning
    // on its way to the test.
    let asWarning = IssueHandlingTrait.compactMapIssues { issue in
      var warning = issue
      warning.severity = .warning
      return warning
    }
    try? await asWarning.provideScope(for: test, testCase: Test.Case.current) {
      Issue.record(ReportedFailure(report: report), sourceLocation: location)
    }
    return true
  }

  package var canGatherIssues: Bool {
    Test.current != nil
  }

  package func gatherIssues(during body: @escaping @Sendable () async throws -> Void) async -> (issues: [String], error: (any Error)?) {
    guard let test = Test.current else { return ([], await Self.error(of: body)) }
    let gathered = Mutex<[String]>([])
    // Swift Testing hands every issue recorded in this task tree to the trait's closure first;
    // an error is kept here instead, and warnings go on. An issue a `withKnownIssue` around the
    // `explore` call expects arrives marked as known, so known issues are kept too: the
    // exploration's failure is what that `withKnownIssue` then sees.
    let handler = IssueHandlingTrait.compactMapIssues { issue in
      guard issue.severity >= .error else { return issue }
      let description = Self.describe(issue)
      gathered.withLock { $0.append(description) }
      DeterministicScheduler.noteIssueRecordedByCallingCode(description)
      return nil
    }
    let error = await Self.error { try await handler.provideScope(for: test, testCase: Test.Case.current, performing: body) }
    return (gathered.withLock { $0 }, error)
  }

  /// `Expectation failed: (x → 1) == 2: comment (File.swift:12:5)`.
  static func describe(_ issue: Issue) -> String {
    let comments = issue.comments.map(\.rawValue).joined(separator: "; ")
    return "\(issue.kind)" + (comments.isEmpty ? "" : ": \(comments)") + (issue.sourceLocation.map { " (\($0))" } ?? "")
  }

  private static func error(of body: @Sendable () async throws -> Void) async -> (any Error)? {
    do {
      try await body()
      return nil
    } catch {
      return error
    }
  }
}
