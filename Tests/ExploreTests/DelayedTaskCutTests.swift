import BugCatalogue
@testable import EffectScheduler
@testable import Explore
import ExploreTesting
import Synchronization
import Testing

/// A debounce in the shape of swift-async-algorithms': a timer task waits for an element, then
/// reads the clock and sleeps out the debounce interval before it emits; the upstream's end
/// cancels the timer task and emits what is pending.
private final class Debounce: Sendable {
  private struct State {
    var pending: Int?
    var emitted: [Int] = []
    var wake: CheckedContinuation<Void, Never>?
  }
  private let state = Mutex(State())

  /// An element from upstream: it replaces the pending one, and wakes the timer task.
  func send(_ element: Int) {
    let wake = state.withLock { state in
      state.pending = element
      defer { state.wake = nil }
      return state.wake
    }
    wake?.resume()
  }

  /// Waits until an element is pending.
  func waitForElement() async {
    await withCheckedContinuation { (wake: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state in
        if state.pending != nil { return true }
        state.wake = wake
        return false
      }
      if ready { wake.resume() }
    }
  }

  /// Emits the pending element, if any.
  func emit() {
    state.withLock { state in
      if let pending = state.pending { state.emitted.append(pending) }
      state.pending = nil
    }
  }

  /// Ends the debounce: wakes a timer task still waiting, emits what is pending, and returns
  /// everything emitted.
  func finish() -> [Int] {
    let wake = state.withLock { state in
      defer { state.wake = nil }
      return state.wake
    }
    wake?.resume()
    emit()
    return state.withLock { $0.emitted }
  }
}

@Suite("Tasks delayed past a timer fired early")
struct DelayedTaskCutTests {
  /// Upstream sends 1, waits 200 ms, sends 2 and ends; the debounce interval is 100 ms, so both
  /// are emitted. With a timer fired early while the timer task, just woken by the 1, has not yet
  /// read the clock, the 2 would replace the 1 and the upstream's end cancel the timer task
  /// before the delay could show: a correct debounce dropping an element.
  static func debounce(_ spawn: Spawn) -> @Sendable () async throws -> Void {
    {
      let emitted = await debounced(spawn)
      try check(emitted == [1, 2], "the debounce emitted \(emitted)")
    }
  }

  /// The elements the debounce above emits.
  static func debounced(_ spawn: Spawn) async -> [Int] {
    let debounce = Debounce()
    let timer = spawn(name: "timer") {
      while !Task.isCancelled {
        await debounce.waitForElement()
        if Task.isCancelled { return }
        try? await Task.sleep(until: ContinuousClock.now + .milliseconds(100), clock: .continuous)
        if Task.isCancelled { return }
        debounce.emit()
      }
    }
    let upstream = spawn(name: "upstream") {
      debounce.send(1)
      try? await Task.sleep(for: .milliseconds(200))
      debounce.send(2)
      timer.cancel()
    }
    await upstream.value
    await timer.value
    return debounce.finish()
  }

  @Test("a task woken but not yet at its clock read, delayed and then cancelled, stops the run unjudged: a correct debounce passes",
    arguments: [ExplorationStrategy.exhaustive, .default, .reduced], Spawn.allCases)
  func debouncePasses(_ strategy: ExplorationStrategy, spawn: Spawn) async throws {
    let configuration = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil))
    #expect(configuration.scheduler.earlyTimerFirings == 1)
    let summary = try await explore(strategy, configuration: configuration, Self.debounce(spawn))
    #expect(summary.schedules > 1)
  }

  @Test("the schedulers of cut runs, which the tasks those runs left suspended keep alive, leave the watch for stalled jobs")
  func cutRunsLeaveTheStalledJobWatch() async {
    var configuration = SchedulerConfiguration(outsideWorldTimeout: .milliseconds(1))
    configuration.earlyTimerFirings = 1
    let before = StalledJobWatch.watchedCount
    var cut = 0
    for _ in 0..<100 {
      let all = await AllOutcomes.of(DepthFirstSearch(), configuration: configuration) { report in
        report.finalState("\(await Self.debounced(.effect))")
      }
      cut += all.cut
    }
    #expect(cut >= 400, "too few runs were cut for the count below to tell")
    // Kept on, each cut run's record stayed for good, and every new scheduler looked through
    // them all. The count is the process's: the schedulers of the tests that run alongside come
    // and go meanwhile, some dozens at most at once in the whole suite.
    let added = StalledJobWatch.watchedCount - before
    #expect(added < cut / 2, "\(added) more records watched after \(cut) cut runs")
  }

  @Test("a cut run has no outcome, and its schedule and trace end at the cut")
  func cutRunsEndAtTheCut() async throws {
    var configuration = SchedulerConfiguration(outsideWorldTimeout: .milliseconds(1))
    configuration.earlyTimerFirings = 1
    let all = await AllOutcomes.of(DepthFirstSearch(), configuration: configuration) { report in
      report.finalState("\(await Self.debounced(.effect))")
    }
    #expect(all.cut > 0, "no run was cut, so nothing is checked")
    // A cut run has no outcome: only runs within the model of timed code are judged.
    #expect(all.outcomes == ["finished: [1, 2]"])

    // The trace of a cut run ends at the cut.
    var runner = SequentialRunner()
    var search = DepthFirstSearch()
    var checked = 0
    while search.beginRun(), checked == 0 {
      let outcome = withUnsafeMutablePointer(to: &search) { pointer in
        runner.run(strategy: StrategyReference(search: pointer), configuration: configuration) { try await Self.debounce(.effect)() }
      }
      search.runDidEnd(trace: outcome.trace)
      guard let cut = outcome.record.time.cutAtStep else { continue }
      checked += 1
      #expect(outcome.trace.steps == cut + 1)
      #expect(outcome.schedule.choices.count == cut + 1)
    }
    #expect(checked == 1)
  }
}
