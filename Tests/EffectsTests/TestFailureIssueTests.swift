import Effects
import Synchronization
import ExploreTesting
import Testing

@Suite("withTestHandler: failures recorded as issues")
struct TestFailureIssueTests {
  @Test("a script failure leaves one warning, at the script line, and is thrown for the test to catch")
  func warningAtScriptLine() async throws {
    let issues = Recorder()
    // Sees, and keeps from reaching the test, every issue recorded inside it.
    let observer = IssueHandlingTrait.compactMapIssues { issue in
      issues.append("\(issue.severity) " + Self.describe(issue))
      return nil
    }
    // Not inside `#expect(throws:)`: in a macro's argument, `#line` defaults name the macro's line.
    let scriptLine = #line + 8
    let threwFailure = Mutex(false)
    try await observer.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
      do {
        try await withTestHandler {
          echo()
        } test: { effect in
          try await effect.expect(Console.readLine, return: "Hello")
          try await effect.expect(Console.readLine, return: "again")
        }
      } catch {
        threwFailure.withLock { $0 = error is EffectTestFailure }
      }
    }
    #expect(threwFailure.withLock { $0 })
    #expect(
      issues.lines == [
        "warning \(#fileID):\(scriptLine) \(#filePath): Caught error: expected Console.readLine, but the program performed Console.print(\"Hello\")"
      ])
  }

  @Test("requireFailure returns the failure and records nothing, not even a warning")
  func expectedFailureRecordsNothing() async throws {
    let issues = Recorder()
    let observer = IssueHandlingTrait.compactMapIssues { issue in
      issues.append(Self.describe(issue))
      return nil
    }
    try await observer.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
      let failure = try await requireFailure(EffectTestFailure.self) {
        try await withTestHandler {
          echo()
        } test: { effect in
          try await effect.expect(Console.print) { _ in }
        }
      }
      #expect(failure.problem == .mismatch(expected: "Console.print", performed: "Console.readLine()"))
    }
    #expect(issues.lines.isEmpty)
  }

  @Test("requireFailure records an issue at its call when the script passes")
  func unexpectedPass() async throws {
    let issues = Recorder()
    let callLine = #line + 2
    try await withKnownIssue {
      try await requireFailure(EffectTestFailure.self) {
        try await withTestHandler {
          echo()
        } test: { effect in
          try await effect.expect(Console.readLine, return: nil)
        }
      }
    } matching: { issue in
      issues.append(Self.describe(issue))
      return true
    }
    #expect(issues.lines.count == 1)
    #expect(issues.lines.first?.hasPrefix("\(#fileID):\(callLine) ") == true)
  }

  /// `Module/File.swift:12 /path/File.swift: ` and the issue's text.
  private static func describe(_ issue: Issue) -> String {
    let place = issue.sourceLocation.map { "\($0.fileID):\($0.line) \($0.filePath)" } ?? "nowhere"
    let comments = issue.comments.map { ": \($0.rawValue)" }.joined()
    return "\(place): \(issue.kind)\(comments)"
  }
}
