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
  let (issues, failure) = try await issues { () async -> ExplorationFailure? in
    do {
      try await body()
      return nil
    } catch {
      return error as? ExplorationFailure
    }
  }
  return (issues, try #require(failure))
}

/// Runs `body` in a scope that keeps, and keeps from failing this test, each issue that reaches
/// the test; returns them with what `body` returned.
private func issues<Value: Sendable>(
  recordedDuring body: @escaping @Sendable () async throws -> Value
) async throws -> (issues: [Issue], value: Value) {
  let issues = Mutex<[Issue]>([])
  let observer = IssueHandlingTrait.compactMapIssues { issue in
    issues.withLock { $0.append(issue) }
    return nil
  }
  let value = Mutex<Value?>(nil)
  try await observer.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
    let returned = try await body()
    value.withLock { $0 = returned }
  }
  return (issues.withLock { $0 }, try #require(value.withLock { $0 }))
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
    let (issues, failure) = try await issues {
      try await requireFailure(ExplorationFailure.self) {
        try await explore(.exhaustive, configuration: Self.quiet) {
          #expect(await incrementTwice(losingUpdates: true) == 2)
        }
      }
    }
    #expect(issues.isEmpty)
    #expect(String(describingForTest: failure) == failure.description)
  }

  @Test("a pass that rests on an assumption records one warning at the call, headed by the claim")
  func assumptionWarningHeadedByTheClaim() async throws {
    let (recorded, summary) = try await issues {
      // Critical sections of a lock the scheduler does not pause at ran whole.
      try await explore(.exhaustive, configuration: Self.quiet) {
        let lock = NSLock()
        let other = Task.effect(name: "other") { lock.withLock {} }
        lock.withLock {}
        await other.value
      }
    }
    try #require(!summary.claim.assumptions.isEmpty)
    try #require(recorded.count == 1)
    #expect(recorded[0].severity == .warning)
    // Not "Issue recorded", with the claim below it: the claim is the issue's first line.
    let shown = "\(recorded[0].kind)"
    #expect(shown.hasPrefix("Caught error: explore passed every schedule, assuming that "))
    #expect(!shown.contains("\n"))
  }
}
