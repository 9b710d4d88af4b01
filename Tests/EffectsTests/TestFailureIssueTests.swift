import Effects
import ExploreTesting
import Testing

@Suite("withTestHandler: failures recorded as issues")
struct TestFailureIssueTests {
  @Test("a script failure is recorded once, at the script line, and is still thrown")
  func recordedAtScriptLine() async throws {
    var scriptLine = 0
    let issues = Recorder()
    let testLine = #line + 1
    try await withKnownIssue {
      try await withTestHandler {
        echo()
      } test: { effect in
        try await effect.expect(Console.readLine, return: "Hello")
        scriptLine = #line + 1
        try await effect.expect(Console.readLine, return: "again")
      }
    } matching: { issue in
      issues.append(Self.describe(issue))
      return true
    }
    #expect(
      issues.lines == [
        // The issue withTestHandler records, where the script failed.
        "\(#fileID):\(scriptLine) \(#filePath): Issue recorded: expected Console.readLine, but the program performed Console.print(\"Hello\")",
        // The thrown error, which the test let escape: it points at the first.
        "\(#fileID):\(testLine) \(#filePath): Caught error: the test script failed at \(#fileID):\(scriptLine):32; the failure is recorded there",
      ])
  }

  @Test("requireFailure returns the failure and records no issue")
  func expectedFailureRecordsNothing() async throws {
    let failure = try await requireFailure(EffectTestFailure.self) {
      try await withTestHandler {
        echo()
      } test: { effect in
        try await effect.expect(Console.print) { _ in }
      }
    }
    #expect(failure.problem == .mismatch(expected: "Console.print", performed: "Console.readLine()"))
    // Any issue recorded would have failed this test; it also still knows it was not recorded.
    #expect(failure.testDescription == failure.description)
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
