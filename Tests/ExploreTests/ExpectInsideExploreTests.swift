import Effects
import Explore
import ExploreTesting
import Synchronization
import Testing

@Suite("Expectations inside explore")
struct ExpectInsideExploreTests {
  static let quiet = ExploreConfiguration(progressInterval: nil)

  @Test("a failing #require ends its schedule as a failure that quotes the expectation")
  func failingRequire() async throws {
    let body: @Sendable () async throws -> Void = {
      let total = await incrementTwice(losingUpdates: true)
      try #require(total == 2)
    }
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: Self.quiet, body)
    }
    #expect(failure.underlyingError is RecordedIssue)
    #expect(failure.summary.hasPrefix("the body recorded an issue: Expectation failed: (total → 1) == 2 (ExpectInsideExploreTests.swift:"))
    let replayed = try await requireFailure(ExplorationFailure.self) {
      try await explore(.replay(try #require(failure.schedule).description), configuration: Self.quiet, body)
    }
    #expect(replayed.summary == failure.summary)
  }

  @Test("a failing #expect ends its schedule too, with its schedule and replay line")
  func failingExpect() async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: Self.quiet) {
        let total = await incrementTwice(losingUpdates: true)
        #expect(total == 2, "an increment was lost")
      }
    }
    #expect(failure.summary.hasPrefix(
      "the body recorded an issue: Expectation failed: (total → 1) == 2: an increment was lost (ExpectInsideExploreTests.swift:"))
    #expect(failure.replayCall != nil)
    // The search stops at the first failing schedule instead of going on through all of them.
    #expect(try #require(failure.scheduleNumber) < 20)
  }

  @Test("#expect(throws:) catches a failing exploration, which leaves only a warning")
  func expectThrows() async {
    await #expect(throws: ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: Self.quiet) {
        #expect(await incrementTwice(losingUpdates: true) == 2)
      }
    }
  }

  @Test("a failing exploration records exactly one issue, a warning at the explore call, which shows the report")
  func oneIssue() async throws {
    let issues = Mutex<[Issue]>([])
    // Sees, and keeps from failing this test, each issue that reaches the test; those the
    // explored body records are gathered by `explore` before they get here.
    let observer = IssueHandlingTrait.compactMapIssues { issue in
      issues.withLock { $0.append(issue) }
      return nil
    }
    let exploreLine = #line + 4
    let caught = Mutex<ExplorationFailure?>(nil)
    try await observer.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
      do throws(ExplorationFailure) {
        try await explore(.exhaustive, configuration: Self.quiet) {
          let total = await incrementTwice(losingUpdates: true)
          #expect(total == 2)
        }
      } catch {
        caught.withLock { $0 = error }
      }
    }
    let failure = try #require(caught.withLock { $0 })
    let recorded = issues.withLock { $0 }
    try #require(recorded.count == 1)
    #expect(recorded[0].severity == .warning)
    #expect(recorded[0].sourceLocation?.fileID == #fileID)
    #expect(recorded[0].sourceLocation?.line == exploreLine)
    #expect("\(recorded[0].kind)" == "Caught error: \(failure.description)")
    #expect(failure.description.contains("replay it: "))
  }

  @Test("an #expect that passes under every schedule records nothing")
  func passingExpect() async throws {
    let summary = try await explore(.exhaustive, configuration: Self.quiet) {
      #expect(await incrementTwice(losingUpdates: false) == 2)
    }
    #expect(summary.exploredEverySchedule)
    #expect(summary.schedules > 1)
  }

  @Test("requireFailure records an issue at its call when every schedule passes")
  func unexpectedPass() async throws {
    let issues = Mutex<[Issue]>([])
    let callLine = #line + 2
    try await withKnownIssue {
      try await requireFailure(ExplorationFailure.self) {
        try await explore(.exhaustive, configuration: Self.quiet) {
          #expect(await incrementTwice(losingUpdates: false) == 2)
        }
      }
    } matching: { issue in
      issues.withLock { $0.append(issue) }
      return true
    }
    let lines = issues.withLock { $0.map { $0.sourceLocation?.line } }
    #expect(lines == [callLine])
  }
}

/// Two tasks increment a tally once each; with `losingUpdates`, each reads, suspends, then writes,
/// so under some schedules one increment is lost. Returns the final tally.
func incrementTwice(losingUpdates: Bool) async -> Int {
  let tally = Tally()
  let first = Task.effect(name: "first") { await tally.increment(acrossSuspension: losingUpdates) }
  let second = Task.effect(name: "second") { await tally.increment(acrossSuspension: losingUpdates) }
  _ = await (first.value, second.value)
  return await tally.value
}

private actor Tally {
  var value = 0

  func increment(acrossSuspension: Bool) async {
    let read = value
    await Task.yield()
    value = acrossSuspension ? read + 1 : value + 1
  }
}
