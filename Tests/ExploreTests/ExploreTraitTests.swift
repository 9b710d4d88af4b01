import EffectScheduler
import Explore
import ExploreTesting
import Synchronization
import Testing

@Suite("The .explore test trait")
struct ExploreTraitTests {
  @Test("the test function runs under the scheduler, once a schedule", .explore(.exhaustive))
  func runsUnderExploration() async throws {
    #expect(DeterministicScheduler.current != nil)
    #expect(await incrementTwice(losingUpdates: false) == 2)
  }

  @Test(
    "a failing schedule is recorded once, at the @Test, headed by what went wrong, with the report",
    ExpectsOneIssue { issue in
      // What Swift Testing prints after "recorded an issue at File.swift:12:4: ".
      let shown = "\(issue.kind)"
      return issue.sourceLocation == Test.current?.sourceLocation
        && shown.hasPrefix(
          "Caught error: explore found a failing schedule: the body recorded an issue: Expectation failed: (total → 1) == 2")
        && shown.contains("replay it: ")
    },
    .explore(.exhaustive, configuration: ExploreConfiguration(progressInterval: nil)))
  func failingSchedule() async throws {
    let total = await incrementTwice(losingUpdates: true)
    #expect(total == 2)
  }

  @Test(
    "a trait with a scope after .explore is refused with an issue at the @Test",
    ExpectsOneIssue { issue in
      issue.sourceLocation == Test.current?.sourceLocation
        && issue.comments.first?.rawValue.contains("`.explore` must come after every trait that provides a scope; IssueHandlingTrait comes after it") == true
    },
    .explore(.exhaustive), .compactMapIssues { $0 })
  func misplaced() async throws {
    Issue.record("the test function ran although its traits are misplaced")
  }
}

/// Expects the test to record exactly one issue, which `matches` accepts, and nothing else.
private struct ExpectsOneIssue: TestTrait, TestScoping {
  let matches: @Sendable (Issue) -> Bool

  func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    testCase == nil ? nil : self
  }

  func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
    let matched = Counter()
    // Not intermittent: the issue must be recorded. An issue `matches` refuses fails the test.
    try await withKnownIssue {
      try await function()
    } matching: { issue in
      matches(issue) && matched.next() == 1
    }
  }
}

private final class Counter: Sendable {
  private let count = Mutex(0)

  func next() -> Int {
    count.withLock {
      $0 += 1
      return $0
    }
  }
}
