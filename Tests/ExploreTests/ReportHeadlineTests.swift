import Explore
import Foundation
import ExploreTesting
import Synchronization
import Testing

/// Runs `body` in a scope that keeps, and keeps from failing this test, each issue that reaches
/// the test; returns them with the failure `body` threw.
private func issuesAndFailure(
  of body: @escaping @Sendable () async throws -> Void
) async throws -> (issues: [Issue], failure: ExplorationFailure) {
  let issues = Mutex<[Issue]>([])
  let observer = IssueHandlingTrait.compactMapIssues { issue in
    issues.withLock { $0.append(issue) }
    return nil
  }
  let caught = Mutex<ExplorationFailure?>(nil)
  try await observer.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
    do {
      try await body()
    } catch {
      caught.withLock { $0 = error as? ExplorationFailure }
    }
  }
  return (issues.withLock { $0 }, try #require(caught.withLock { $0 }))
}

@Suite("A failing exploration's report, where the user looks")
struct ReportHeadlineTests {
  static let quiet = ExploreConfiguration(progressInterval: nil)

  @Test("the issue at the explore call begins with what went wrong, and holds the report")
  func warningHeadedBySummary() async throws {
    let expectLine = #line + 4
    let (issues, failure) = try await issuesAndFailure {
      try await explore(.exhaustive, configuration: Self.quiet) {
        let total = await incrementTwice(losingUpdates: true)
        #expect(total == 2)
      }
    }
    try #require(issues.count == 1)
    let warning = issues[0]
    #expect(warning.severity == .warning)
    // What Swift Testing prints after "recorded a warning at File.swift:12:5: ".
    let shown = "\(warning.kind)".split(separator: "\n", omittingEmptySubsequences: false)
    #expect(shown.first.map(String.init) == "Caught error: explore found a failing schedule: the body recorded an issue: "
      + "Expectation failed: (total → 1) == 2 (ReportHeadlineTests.swift:\(expectLine):9)")
    #expect(shown.first.map(String.init) == "Caught error: \(failure.headline)")
    #expect(shown.dropFirst().joined(separator: "\n") == failure.description.split(separator: "\n").dropFirst().joined(separator: "\n"))
    #expect(warning.comments.isEmpty)
  }

  @Test("the thrown failure, which fails the test, shows only that line and where the report is")
  func thrownFailureShowsTheHeadline() async throws {
    let (_, failure) = try await issuesAndFailure {
      try await explore(.exhaustive, configuration: Self.quiet) {
        #expect(await incrementTwice(losingUpdates: true) == 2)
      }
    }
    let shown = String(describingForTest: failure)
    #expect(shown == "\(failure.headline) (the report is in the warning at \(failure.location))")
    #expect(!shown.contains("\n"))
    #expect(failure.description.hasPrefix(failure.headline + "\n"))
    #expect(failure.description.contains("replay it: "))
  }

  @Test("requireFailure records nothing, and the failure it returns shows its whole report")
  func expectedFailureKeepsItsReport() async throws {
    let issues = Mutex<[Issue]>([])
    let observer = IssueHandlingTrait.compactMapIssues { issue in
      issues.withLock { $0.append(issue) }
      return nil
    }
    let kept = Mutex<ExplorationFailure?>(nil)
    try await observer.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
      let failure = try await requireFailure(ExplorationFailure.self) {
        try await explore(.exhaustive, configuration: Self.quiet) {
          #expect(await incrementTwice(losingUpdates: true) == 2)
        }
      }
      kept.withLock { $0 = failure }
    }
    let failure = try #require(kept.withLock { $0 })
    #expect(issues.withLock { $0.isEmpty })
    #expect(String(describingForTest: failure) == failure.description)
  }

  @Test("a pass that rests on an assumption records one warning at the call, headed by the claim")
  func assumptionWarningHeadedByTheClaim() async throws {
    let issues = Mutex<[Issue]>([])
    let observer = IssueHandlingTrait.compactMapIssues { issue in
      issues.withLock { $0.append(issue) }
      return nil
    }
    let summary = Mutex<ExplorationSummary?>(nil)
    try await observer.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
      // Critical sections of a lock the scheduler does not pause at ran whole.
      let passed = try await explore(.exhaustive, configuration: Self.quiet) {
        let lock = NSLock()
        let other = Task.effect(name: "other") { lock.withLock {} }
        lock.withLock {}
        await other.value
      }
      summary.withLock { $0 = passed }
    }
    let claim = try #require(summary.withLock { $0 }).claim
    try #require(!claim.assumptions.isEmpty)
    let recorded = issues.withLock { $0 }
    try #require(recorded.count == 1)
    #expect(recorded[0].severity == .warning)
    // Not "Issue recorded", with the claim below it: the claim is the issue's first line.
    let shown = "\(recorded[0].kind)"
    #expect(shown.hasPrefix("Caught error: explore passed every schedule, assuming that "))
    #expect(!shown.contains("\n"))
  }
}
