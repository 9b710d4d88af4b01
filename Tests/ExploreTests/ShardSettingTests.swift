import Effects
@testable import Explore
import Synchronization
import Testing

/// Counts the runs of a body.
private final class Counter: Sendable {
  private let count = Mutex(0)
  var value: Int { count.withLock { $0 } }
  func increment() { count.withLock { $0 += 1 } }
}

@Suite("EXPLORE_SHARD and sharded failures")
struct ShardSettingTests {
  @Test("EXPLORE_SHARD=i/n sets the shard, counting from 1, over the configuration's")
  func environmentSetsShard() throws {
    let configured = Shard(index: 1, count: 2)
    #expect(try ShardRequest.shard(configured: nil, environment: [:]) == nil)
    #expect(try ShardRequest.shard(configured: configured, environment: [:]) == configured)
    #expect(try ShardRequest.shard(configured: configured, environment: ["EXPLORE_SHARD": "3/4"]) == Shard(index: 3, count: 4))
    #expect(try ShardRequest.shard(configured: nil, environment: ["EXPLORE_SHARD": " 1/1 "]) == Shard(index: 1, count: 1))
    #expect(try ShardRequest.shard(configured: nil, environment: ["EXPLORE_SHARD": "12/12"]) == Shard(index: 12, count: 12))
  }

  @Test(
    "a malformed EXPLORE_SHARD is an error naming the variable, the value and what is wrong",
    arguments: [
      ("3/2", "the index 3 is above the count 2"), ("0/4", "the index 0 is below 1"), ("1/0", "the count 0 is below 1"),
      ("a/b", "not of the form i/n"), ("", "it is empty"), ("  ", "it is empty"), ("2", "not of the form i/n"),
      ("1/4/5", "not of the form i/n"), ("-1/4", "not of the form i/n"), ("+1/4", "not of the form i/n"),
      ("1 / 4", "not of the form i/n"), ("1/99999999999999999999", "not of the form i/n"),
      ("1/2000000", "the count 2000000 is above 1000000"),
    ])
  func malformedEnvironment(value: String, problem: String) {
    #expect {
      try ShardRequest.shard(configured: Shard(index: 1, count: 2), environment: ["EXPLORE_SHARD": value])
    } throws: { error in
      let message = String(describing: error)
      return message.hasPrefix("EXPLORE_SHARD='\(value)' is not a shard: ") && message.contains(problem)
        && message.contains("Write i/n with i from 1 to n")
    }
  }

  @Test("a configured shard outside 1...count fails the explore call at its caller's line, running nothing",
        arguments: [Shard(index: 0, count: 4), Shard(index: 5, count: 4), Shard(index: 1, count: 0), Shard(index: 1, count: .max)])
  func badConfiguredShard(shard: Shard) async throws {
    let runs = Counter()
    // Not inside #require, whose expansion would move the caller's #line to its own.
    let failure: ExplorationFailure
    let line = #line + 2
    do {
      try await explore(.exhaustive, configuration: ExploreConfiguration(shard: shard)) { runs.increment() }
      Issue.record("explore ran with \(shard)")
      return
    } catch {
      failure = error
    }
    #expect(failure.location == "ExploreTests/ShardSettingTests.swift:\(line)")
    #expect(failure.summary.hasPrefix("ExploreConfiguration.shard, \(shard), is not a shard: "))
    #expect(failure.schedule == nil)
    #expect(runs.value == 0)
  }

  @Test("a shard that finds a failure says so, and its schedule replays unsharded and in any shard")
  func failureReplaysAnywhere() async throws {
    var failures: [ExplorationFailure] = []
    for index in 1...3 {
      do {
        try await explore(.exhaustive, configuration: ExploreConfiguration(progressInterval: nil, shard: Shard(index: index, count: 3)), twoDeposits)
      } catch {
        failures.append(error)
      }
    }
    #expect(!failures.isEmpty)
    for failure in failures {
      let shard = try #require(failure.shard)
      #expect(failure.description.contains("  shard:    \(shard.index) of 3 (the replay below needs no shard)"))
      let schedule = try #require(failure.schedule)
      for configuration in [ExploreConfiguration(), ExploreConfiguration(shard: Shard(index: shard.index % 3 + 1, count: 3))] {
        let replayed = try await #require(throws: ExplorationFailure.self) {
          try await explore(.replay(schedule), configuration: configuration, twoDeposits)
        }
        #expect(replayed.schedule == schedule)
        #expect(replayed.shard == nil)
        #expect(replayed.summary == failure.summary)
      }
    }
  }
}
