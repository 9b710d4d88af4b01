import EffectScheduler
import Dispatch

/// One linearizability check: generates scenarios, explores each, judges every run's history and
/// shrinks a failing scenario. It runs on one thread, the exploration's.
struct LinearizabilityCheck<Subject: Sendable, Model: Sendable>: Sendable {
  typealias Operation = LinearizabilityOperations<Subject, Model>.Operation

  let make: @Sendable () async -> Subject
  let makeModel: @Sendable () async -> Model
  let operations: [Operation]
  let configuration: LinearizabilityConfiguration
  let location: String

  /// The number of arguments each operation takes, 0 for none.
  private var argumentCounts: [Int] { operations.map(\.arguments.count) }

  /// Runs the check: the scenario and schedule of `replay` alone, or generated scenarios.
  func run(replay: String?) -> Result<LinearizabilitySummary, LinearizabilityFailure> {
    let started = DispatchTime.now().uptimeNanoseconds
    guard !operations.isEmpty else { return .failure(failure("no operations were declared")) }
    if let replay { return self.replay(replay, started: started) }
    var generator = SeededGenerator(seed: configuration.seed)
    let deadline = configuration.timeBudget.map { Deadline(nanoseconds: $0.clampedNanoseconds, after: started) }
    var summary = LinearizabilitySummary(scenarios: 0, schedules: 0, scenariosExploredCompletely: 0, duration: .zero, timeBudgetRanOut: false)
    for _ in 0..<configuration.scenarios {
      if deadline?.hasPassed ?? false {
        summary.timeBudgetRanOut = true
        break
      }
      let scenario = Scenario.random(configuration.shape, arguments: argumentCounts, using: &generator)
      switch explore(scenario, configuration.strategy) {
      case .success(let explored):
        summary.scenarios += 1
        summary.schedules += explored.schedules
        if explored.exploredEverySchedule { summary.scenariosExploredCompletely += 1 }
      case .failure(let found):
        return .failure(report(shrinking: scenario, found))
      }
    }
    summary.duration = .nanoseconds(DispatchTime.now().uptimeNanoseconds - started)
    return .success(summary)
  }

  /// Runs the scenario and schedule of a replay line.
  private func replay(_ text: String, started: UInt64) -> Result<LinearizabilitySummary, LinearizabilityFailure> {
    guard let at = text.firstIndex(of: "@") else {
      return .failure(failure("the replay \"\(text)\" is not scenario@schedule, as a report's replay line gives it"))
    }
    let scenario: Scenario
    switch Scenario.parse(text[..<at], arguments: argumentCounts) {
    case .success(let parsed): scenario = parsed
    case .failure(let error): return .failure(failure("the replay's scenario cannot be read: \(error)"))
    }
    switch explore(scenario, .replay(String(text[text.index(after: at)...]))) {
    case .success(let explored):
      let duration = Duration.nanoseconds(DispatchTime.now().uptimeNanoseconds - started)
      return .success(LinearizabilitySummary(scenarios: 1, schedules: explored.schedules, scenariosExploredCompletely: 0, duration: duration, timeBudgetRanOut: false))
    case .failure(let found):
      return .failure(report(scenario, found, callsBeforeShrinking: nil))
    }
  }

  /// Shrinks `scenario`, which failed with `found`, while a scenario one call smaller fails the
  /// same way, within the shrinking budget; returns the report of the smallest. Each smaller
  /// scenario is explored within the portfolio's schedules, not its time, so what it shrinks to
  /// does not depend on how busy the machine is.
  private func report(shrinking scenario: Scenario, _ found: ExplorationFailure) -> LinearizabilityFailure {
    var best = (scenario: scenario, failure: found)
    var budget = configuration.shrinkingBudget
    var shrank = true
    while shrank && budget > 0 {
      shrank = false
      for smaller in best.scenario.smaller where budget > 0 {
        budget -= 1
        guard case .failure(let failure) = explore(smaller, configuration.strategy, timed: false),
          (failure.underlyingError is ScenarioViolation) == (best.failure.underlyingError is ScenarioViolation)
        else { continue }
        best = (smaller, failure)
        shrank = true
        break
      }
    }
    return report(best.scenario, best.failure, callsBeforeShrinking: scenario.callCount)
  }

  private func report(_ scenario: Scenario, _ found: ExplorationFailure, callsBeforeShrinking: Int?) -> LinearizabilityFailure {
    let violation = found.underlyingError as? ScenarioViolation
    let summary = violation.map { "not linearizable: \($0.violation)" } ?? found.summary
    return LinearizabilityFailure(
      summary: summary, location: location, scenario: scenario, callsBeforeShrinking: callsBeforeShrinking,
      calls: violation.map { table(scenario, $0.history) }, exploration: found)
  }

  private func failure(_ summary: String) -> LinearizabilityFailure {
    LinearizabilityFailure(summary: summary, location: location)
  }

  /// Explores `scenario` with `strategy`, judging each run's history; without the portfolio's
  /// time budget unless `timed`.
  private func explore(
    _ scenario: Scenario, _ strategy: ExplorationStrategy, timed: Bool = true
  ) -> Result<ExplorationSummary, ExplorationFailure> {
    let calls = Self.calls(of: scenario)
    let latest = LatestHistory()
    var exploration = configuration.exploration
    if !timed { exploration.portfolioBudget.time = nil }
    // Each run is judged on this thread, after it ends.
    exploration.searchers = 1
    let explorer = Explorer(body: body(scenario, recordingIn: latest), configuration: exploration, location: location)
    var modelRuns = SequentialRunner()
    let checker = LinearizabilityChecker(
      model: { order in
        var fifo = FIFOStrategy()
        let outcome = modelRuns.run(strategy: &fifo, configuration: SchedulerConfiguration(), operation: runModel(order.map { calls[$0] }))
        return outcome.execution.map(\.value)
      },
      describe: { operations[calls[$0].operation].call(argument: calls[$0].argument) })
    explorer.judge = { _ in
      guard let history = latest.take() else { return nil }
      do {
        return try checker.violation(in: history).map { ScenarioViolation(violation: $0, history: history) }
      } catch let undecided as LinearizabilityUndecided {
        return undecided
      } catch {
        return ModelFailure(error: error)
      }
    }
    return explorer.explore(strategy)
  }

  /// The calls of `scenario` in the order histories number them: the initial part, each task's,
  /// the final part.
  private static func calls(of scenario: Scenario) -> [Scenario.Call] {
    scenario.initial + scenario.parallel.flatMap { $0 } + scenario.final
  }

  /// A run of `scenario`: a fresh subject, the initial calls, the tasks at once in a task group,
  /// the final calls; it leaves the history in `latest`.
  private func body(_ scenario: Scenario, recordingIn latest: LatestHistory) -> @Sendable () async throws -> Void {
    let calls = Self.calls(of: scenario)
    var taskRanges: [Range<Int>] = []
    var next = scenario.initial.count
    for task in scenario.parallel {
      taskRanges.append(next..<(next + task.count))
      next += task.count
    }
    let initial = 0..<scenario.initial.count
    let final = next..<calls.count
    return { [make, operations, taskRanges] in
      let subject = await make()
      let log = CallLog(calls: calls.count)
      @Sendable func call(_ index: Int) async {
        await log.record(index) { await operations[calls[index].operation].onSubject(subject, calls[index].argument) }
      }
      for index in initial { await call(index) }
      await withTaskGroup(of: Void.self) { group in
        for range in taskRanges {
          group.addTask { for index in range { await call(index) } }
        }
      }
      for index in final { await call(index) }
      latest.store(log.history)
    }
  }

  /// Runs `calls` one after another on a fresh model, returning their results.
  private func runModel(_ calls: [Scenario.Call]) -> @Sendable () async throws -> [OperationResult] {
    { [makeModel, operations] in
      let model = await makeModel()
      var results: [OperationResult] = []
      for call in calls { results.append(await operations[call.operation].onModel(model, call.argument)) }
      return results
    }
  }

  /// Each part's calls with their results, a line each.
  private func table(_ scenario: Scenario, _ history: History) -> String {
    var index = 0
    func line(_ label: String, _ calls: [Scenario.Call]) -> String {
      let shown = calls.map { call in
        defer { index += 1 }
        return operations[call.operation].call(argument: call.argument) + " → " + (history.entries[index].result?.description ?? "nothing")
      }
      return "  " + label.padding(toLength: 10, withPad: " ", startingAt: 0) + shown.joined(separator: ", ")
    }
    var lines: [String] = []
    if !scenario.initial.isEmpty { lines.append(line("before:", scenario.initial)) }
    for (number, task) in scenario.parallel.enumerated() { lines.append(line("task \(number + 1):", task)) }
    if !scenario.final.isEmpty { lines.append(line("after:", scenario.final)) }
    return lines.joined(separator: "\n")
  }
}

/// A run's history that no sequential order explains, with the history.
struct ScenarioViolation: Error, CustomStringConvertible {
  let violation: LinearizabilityViolation
  let history: History
  var description: String { "not linearizable: \(violation)" }
}

/// The model failed to run calls one after another.
struct ModelFailure: Error, CustomStringConvertible {
  let error: any Error
  var description: String { "the sequential specification failed when its calls ran one after another: \(error)" }
}
