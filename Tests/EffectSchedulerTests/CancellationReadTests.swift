@testable import EffectScheduler
import Testing

/// A task that reads another task's cancelled flag through its handle reads what the step that
/// cancels that task wrote: a run that watches hidden accesses notes such reads (on 64-bit Linux,
/// through the program's calls to `swift_task_isCancelled`), so that the reduction takes the two
/// steps as dependent.
@Suite("Reads of another task's cancelled flag")
struct CancellationReadTests {
  /// Runs `operation` once, first in first out, watching hidden accesses unless `watching` is
  /// false, and returns its trace.
  private static func trace(watching: Bool = true, _ operation: @escaping @Sendable () async -> Void) async -> Trace {
    await onDedicatedThread {
      var strategy = FIFOStrategy()
      return withUnsafeMutablePointer(to: &strategy) { strategy in
        var runner = SequentialRunner()
        let reference = watching ? StrategyReference(watchingHiddenAccessesOf: strategy) : StrategyReference(strategy)
        return runner.run(strategy: reference, configuration: SchedulerConfiguration(), operation: operation).trace
      }
    }
  }

  @Test("a read through a handle is noted at the reader's step, naming the task read; a task's reads of its own flag are not")
  func readThroughHandleIsNoted() async throws {
    try #require(!CancellationReads.redirections.isEmpty, "no slot for swift_task_isCancelled in this image")
    let trace = await Self.trace {
      let target = Task { await Task.yield() }
      let reader = Task { _ = target.isCancelled }
      let own = Task { _ = Task.isCancelled }
      await reader.value
      await own.value
      await target.value
    }
    let target = TaskID(1)
    let reader = TaskID(2)
    // The reader's step: the one that began its job.
    let readerSteps = Set(trace.events.filter { $0.task == reader && $0.kind == .started }.map(\.step))
    #expect(trace.taskReads.contains { $0.task == target && readerSteps.contains($0.step) }, "\(trace.taskReads)\n\(trace)")
    #expect(trace.taskReads.allSatisfy { $0.task == target }, "\(trace.taskReads)")
  }

  @Test("a run that does not watch notes no read")
  func unwatchedRunNotesNothing() async {
    let trace = await Self.trace(watching: false) {
      let target = Task { await Task.yield() }
      let reader = Task { _ = target.isCancelled }
      await reader.value
      await target.value
    }
    #expect(trace.taskReads.isEmpty)
  }
}
