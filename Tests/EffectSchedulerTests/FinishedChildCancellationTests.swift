@testable import EffectScheduler
import Testing

/// A structured child is known to have completed only once the root has, so while the run goes
/// on its memory may be another task's. The watch for cancellations (on for a reduced search)
/// must not take a cancellation of the task now living there for the finished child's.
@Suite("Cancellations of finished structured children")
struct FinishedChildCancellationTests {
  @Test("a group child that finished is not cancelled by the cancellation of a later child made where it lived")
  func finishedChildIsNotCancelled() async {
    let trace = await onDedicatedThread {
      var strategy = FIFOStrategy()
      return withUnsafeMutablePointer(to: &strategy) { strategy in
        var runner = SequentialRunner()
        let reference = StrategyReference(watchingHiddenAccessesOf: strategy)
        return runner.run(strategy: reference, configuration: SchedulerConfiguration()) {
          for _ in 0..<3 {
            await withTaskGroup(of: Void.self) { group in
              group.addTask {}
            }
          }
          await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: .seconds(1)) }
            group.cancelAll()
          }
        }.trace
      }
    }
    let cancelled = Set(trace.events.filter { $0.kind == .cancelled }.compactMap(\.task))
    // Tasks #1 to #3 are the first groups' children, which finished before any cancellation.
    #expect(cancelled == [TaskID(4)], "\(trace)")
  }
}
