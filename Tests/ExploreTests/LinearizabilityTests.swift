import BugCatalogue
import EffectScheduler
import Explore
import ExploreTesting
import Testing

/// A register whose reads return what the last write stored, as its model says.
private actor Register {
  private var value = 0
  func write(_ new: Int) { value = new }
  func read() -> Int { value }
}

/// A gate whose waiters wait until it opens, which nothing here does.
private actor Gate {
  private var waiters: [CheckedContinuation<Void, Never>] = []
  func wait() async { await withCheckedContinuation { waiters.append($0) } }
}

@Suite("Linearizability checks")
struct LinearizabilityTests {
  @Test("each type of the catalogue that is not linearizable is found, and its report replays", arguments: LinearizabilityEntry.all.filter { !$0.isLinearizable })
  func findsBug(_ entry: LinearizabilityEntry) async throws {
    let failure = try await requireFailure(LinearizabilityFailure.self) { try await entry.check(LinearizabilityConfiguration()) }
    #expect(failure.summary.hasPrefix("not linearizable"), "\(failure)")
    let scenario = try #require(failure.scenario)
    // Shrunk: a concurrent bug needs two tasks, and these need no more than two calls each.
    #expect(scenario.parallel.count == 2, "\(failure)")
    #expect(scenario.callCount <= 4, "\(failure)")
    #expect(failure.description.contains("task 1:") && failure.description.contains("task 2:"), "\(failure)")
    #expect(failure.exploration?.trace != nil)
    let replayText = try #require(failure.replayText)
    var replay = LinearizabilityConfiguration()
    replay.replay = replayText
    let replayed = try await requireFailure(LinearizabilityFailure.self) { try await entry.check(replay) }
    #expect(replayed.exploration?.trace == failure.exploration?.trace)
    #expect(replayed.calls == failure.calls)
  }

  @Test("no linearizable twin of the catalogue is flagged on 100 scenarios", arguments: LinearizabilityEntry.all.filter(\.isLinearizable))
  func passesTwin(_ entry: LinearizabilityEntry) async throws {
    var configuration = LinearizabilityConfiguration()
    configuration.timeBudget = nil
    let summary = try await entry.check(configuration)
    #expect(summary.scenarios == 100)
    #expect(summary.schedules >= 100)
  }

  @Test("a model of another type defines the correct results, and a type that disagrees with it fails sequentially too")
  func separateModel() async throws {
    var configuration = LinearizabilityConfiguration()
    configuration.scenarios = 20
    try await checkLinearizability(of: { Register() }, model: { Register() }, configuration: configuration) { ops in
      ops.add("write(x)", arguments: [1, 2]) { register, value in await register.write(value) } model: { model, value in await model.write(value) }
      ops.add("read") { register in await register.read() } model: { model in await model.read() }
    }
    // A model that forgets every write: the first read after a write disagrees.
    let failure = try await requireFailure(LinearizabilityFailure.self) {
      try await checkLinearizability(of: { Register() }, model: { Register() }, configuration: configuration) { ops in
        ops.add("write(x)", arguments: [1, 2]) { register, value in await register.write(value) } model: { _, _ in }
        ops.add("read") { register in await register.read() } model: { model in await model.read() }
      }
    }
    #expect(failure.summary.contains("where the model gives 0"), "\(failure)")
  }

  @Test("a thrown error is a result like any other")
  func thrownErrors() async throws {
    struct Empty: Error {}
    var configuration = LinearizabilityConfiguration()
    configuration.scenarios = 10
    try await checkLinearizability(of: { Register() }, configuration: configuration) { ops in
      ops.add("write(x)", arguments: [1]) { register, value in await register.write(value) }
      ops.add("readNonZero") { register in
        let value = await register.read()
        if value == 0 { throw Empty() }
        return value
      }
    }
  }

  @Test("a replay line that is not one, or a check without operations, fails with what is wrong")
  func badInput() async throws {
    var configuration = LinearizabilityConfiguration()
    configuration.replay = "0/9/@s1:0"
    let unreadable = try await requireFailure(LinearizabilityFailure.self) {
      try await checkLinearizability(of: { Register() }, configuration: configuration) { ops in
        ops.add("read") { register in await register.read() }
      }
    }
    #expect(unreadable.summary.contains("cannot be read"), "\(unreadable)")
    configuration.replay = "no schedule"
    let noSchedule = try await requireFailure(LinearizabilityFailure.self) {
      try await checkLinearizability(of: { Register() }, configuration: configuration) { ops in
        ops.add("read") { register in await register.read() }
      }
    }
    #expect(noSchedule.summary.contains("scenario@schedule"), "\(noSchedule)")
    let empty = try await requireFailure(LinearizabilityFailure.self) {
      try await checkLinearizability(of: { Register() }) { _ in }
    }
    #expect(empty.summary == "no operations were declared")
  }

  @Test("a scenario that deadlocks is reported as a deadlock, with its scenario")
  func deadlock() async throws {
    let failure = try await requireFailure(LinearizabilityFailure.self) {
      try await checkLinearizability(of: { Gate() }) { ops in
        ops.add("wait") { gate in await gate.wait() }
      }
    }
    #expect(failure.summary.hasPrefix("deadlock"), "\(failure)")
    #expect(failure.scenario?.callCount == 1, "\(failure)")
  }

  @Test("a checker that runs out of orders to try fails the history instead of passing it")
  func checkerGivesUp() throws {
    // Two overlapping increments that both returned 1: no order explains them, but ruling both
    // orders out takes more than the one order the limit allows.
    let history = History(entries: [
      History.Entry(began: 1, ended: 4, result: OperationResult(1)), History.Entry(began: 2, ended: 3, result: OperationResult(1)),
    ])
    let counter: LinearizabilityChecker.Model = { order in .success(order.indices.map { OperationResult($0 + 1) }) }
    let limited = LinearizabilityChecker(model: counter, describe: { "increment #\($0)" }, nodeLimit: 1)
    #expect(throws: LinearizabilityUndecided.self) { try limited.violation(in: history) }
    let unlimited = LinearizabilityChecker(model: counter, describe: { "increment #\($0)" })
    #expect(try unlimited.violation(in: history) != nil)
  }

  @Test("a scenario's text form reads back")
  func scenarioText() throws {
    let scenario = Scenario(initial: [.init(operation: 0, argument: 1)], parallel: [[.init(operation: 1), .init(operation: 0)], [.init(operation: 1)]])
    #expect(scenario.description == "0.1/1,0|1/")
  }
}
