@testable import EffectScheduler
import Testing

/// A run that watches hidden accesses looks, after each step, at every live task's cancelled flag:
/// past a bound of tasks live at once it stops, so that no step costs a look at thousands, and its
/// trace says from which step (a reduced search then does not analyse the run).
@Suite("The bound on the tasks a run looks at for cancellations")
struct CancellationWatchBoundTests {
  /// Tasks waiting at a gate until it opens, and a way to wait until they all wait.
  private actor Gate {
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var whenAllWait: (count: Int, continuation: CheckedContinuation<Void, Never>)?

    func wait() async {
      await withCheckedContinuation { waiter in
        waiters.append(waiter)
        if let whenAllWait, waiters.count == whenAllWait.count { whenAllWait.continuation.resume() }
      }
    }

    func untilWaiting(_ count: Int) async {
      guard waiters.count < count else { return }
      await withCheckedContinuation { whenAllWait = (count, $0) }
    }

    func open() {
      for waiter in waiters { waiter.resume() }
      waiters.removeAll()
    }
  }

  /// The trace of one first-in-first-out run, watching hidden accesses, of `tasks` tasks waiting
  /// at a gate, the first of them cancelled while it waits.
  private static func trace(tasks: Int) async -> Trace {
    await onDedicatedThread {
      var strategy = FIFOStrategy()
      return withUnsafeMutablePointer(to: &strategy) { strategy in
        var runner = SequentialRunner()
        return runner.run(strategy: StrategyReference(watchingHiddenAccessesOf: strategy), configuration: SchedulerConfiguration()) {
          let gate = Gate()
          let waiting = (0..<tasks).map { _ in Task { await gate.wait() } }
          await gate.untilWaiting(tasks)
          waiting[0].cancel()
          await gate.open()
          for task in waiting { await task.value }
        }.trace
      }
    }
  }

  @Test("a few tasks: every cancellation at the step that made it")
  func fewTasksWatched() async {
    let trace = await Self.trace(tasks: 10)
    #expect(trace.cancellationsAtTheirStep)
    #expect(trace.cancellationsUnwatchedFrom == nil)
    let cancelled = trace.events.first { $0.kind == .cancelled }
    #expect(cancelled?.task == TaskID(1))
  }

  @Test("more than the bound: the run stops looking, says so, and still sees the cancellation at the task's next job")
  func manyTasksUnwatched() async {
    let tasks = DeterministicScheduler.mostTasksWatchedForCancellation + 10
    let trace = await Self.trace(tasks: tasks)
    #expect(trace.cancellationsUnwatchedFrom != nil)
    let cancelled = trace.events.first { $0.kind == .cancelled }
    #expect(cancelled?.task == TaskID(1))
  }
}
