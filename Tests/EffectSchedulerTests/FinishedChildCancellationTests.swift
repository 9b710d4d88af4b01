@testable import EffectScheduler
import Testing

/// A structured child is known to have completed only once the root has, so while the run goes
/// on an `async let` child's memory may be another task's. The watch for cancellations (on for a
/// reduced search) must not take a cancellation of the task now living there for the finished
/// child's. A task-group child is retained until the run ends, so its memory, freed once its
/// group took its result, is nobody else's: should another thread reuse it, the watch would read
/// whatever that thread wrote there, and two runs of one schedule could differ.
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

  @Test("a group child that finished keeps its memory, with its id and its completion, until the run ends")
  func finishedGroupChildKeepsItsMemory() async throws {
    let execution = try await DeterministicScheduler.run {
      let child = await withTaskGroup(of: (address: UInt, id: UInt64).self) { group in
        group.addTask {
          withUnsafeCurrentTask { task in
            let address = UInt(bitPattern: unsafeBitCast(task!, to: UnsafeRawPointer.self))
            return (address, runtimeTaskID(at: address))
          }
        }
        return await group.next()!
      }
      // Allocations of every size a task might have, as another thread's would take the memory
      // of a freed one.
      let taken = stride(from: 64, through: 4_096, by: 16).flatMap { size in
        (0..<4).map { _ in
          let memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
          memory.initializeMemory(as: UInt8.self, repeating: 0xA5, count: size)
          return memory
        }
      }
      defer { taken.forEach { $0.deallocate() } }
      return runtimeTaskID(at: child.address) == child.id && ExecutorAdoption.hasCompleted(taskAt: child.address)
    }
    #expect(execution.value)
  }
}
