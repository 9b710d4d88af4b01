import Effects
import Explore
import ExploreTesting
import Synchronization
import Testing

/// The text of the issue a failing `#expect(await answer.value == 4)` records outside `explore`.
private func outsideExploreIssue() async throws -> String {
  let issues = Mutex<[String]>([])
  let observer = IssueHandlingTrait.compactMapIssues { issue in
    issues.withLock { $0.append("\(issue.kind)") }
    return nil
  }
  try await observer.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
    let answer = Task { 3 }
    #expect(await answer.value == 4)
  }
  return try #require(issues.withLock { $0.first })
}

@Suite("An expectation that awaits, inside explore")
struct AwaitedExpectationTests {
  static let quiet = ExploreConfiguration(progressInterval: nil)

  // Swift Testing does not take apart an expression that awaits or throws, so neither shows the
  // values; the docs say to await the value first (SwiftTestingAndXCTest.md, README.md).
  @Test("shows the expression as Swift Testing does outside explore, without values")
  func asOutside() async throws {
    #expect(try await outsideExploreIssue() == "Expectation failed: await answer.value == 4")
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: Self.quiet) {
        let answer = Task { 3 }
        #expect(await answer.value == 4)
      }
    }
    #expect(failure.summary.hasPrefix("the body recorded an issue: Expectation failed: await answer.value == 4 (AwaitedExpectationTests.swift:"))
  }

  @Test("awaited first, as the docs say, the value shows in the report's first line")
  func awaitedFirst() async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: Self.quiet) {
        let answer = Task { 3 }
        let value = await answer.value
        #expect(value == 4)
      }
    }
    #expect(failure.headline.hasPrefix("explore found a failing schedule: the body recorded an issue: Expectation failed: (value → 3) == 4 ("))
  }
}
