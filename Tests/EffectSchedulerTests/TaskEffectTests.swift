import EffectScheduler
import Effects
import Foundation
import Testing

@Suite("Task.effect")
struct TaskEffectTests {
  @Test("without a scheduler it is a plain task")
  func plainTask() async throws {
    #expect(DeterministicScheduler.current == nil)
    let task = Task.effect(name: "plain") { () -> Bool in DeterministicScheduler.current == nil }
    #expect(await task.value)
    let throwing = Task.effect { () throws -> Int in throw Failure() }
    let result = await throwing.result
    #expect(throws: Failure.self) { try result.get() }
  }

  @Test("under a scheduler its value, result and cancellation work")
  func underScheduler() async throws {
    let execution = try await DeterministicScheduler.run {
      let value = Task.effect(name: "value") { 7 }
      let failing = Task.effect(name: "failing") { () throws -> Int in throw Failure() }
      let cancelled = Task.effect(name: "cancelled") { () -> Bool in
        await Task.yield()
        return Task.isCancelled
      }
      cancelled.cancel()
      let result = await failing.result
      return (await value.value, (try? result.get()) == nil, await cancelled.value, cancelled.isCancelled)
    }
    #expect(execution.value == (7, true, true, true))
    let cancelledTask = try #require(execution.trace.tasks.first { $0.name == "cancelled" })
    #expect(execution.trace.events.contains { $0.task == cancelledTask.id && $0.kind == .cancelled })
  }

  @Test("it inherits the caller's actor isolation")
  func inheritsIsolation() async throws {
    let execution = try await DeterministicScheduler.run {
      await Counter().incrementInChildTask()
    }
    #expect(execution.value == 1)
  }

  @Test("a task that never ran is named in the trace")
  func namedBeforeItRuns() async throws {
    /// Runs the root whenever it can, so the task it creates never gets a turn.
    struct RootFirst: SchedulingStrategy {
      mutating func nextJob(among ready: [ReadyJob], step: Int) throws -> Int {
        ready.firstIndex { $0.task == TaskID(0) } ?? 0
      }
    }
    let error = try await #require(throws: SchedulerError.self) {
      // Without fairness, which would let the task run once the root has yielded twice.
      try await DeterministicScheduler.run(
        strategy: RootFirst(), configuration: SchedulerConfiguration(maxSteps: 20, yieldsBeforeFairness: nil)
      ) {
        let never = Task.effect(name: "never") {}
        while true { await Task.yield() }
        await never.value
      }
    }
    let task = try #require(error.trace.tasks.first { $0.id == TaskID(1) })
    #expect(task.name == "never")
    #expect(!error.trace.events.contains { $0.task == TaskID(1) && $0.kind == .started })
  }

  @Test("a thread of its own escapes the scheduler, and its hand-back is marked as coming from outside")
  func escapingThreadIsVisible() async throws {
    // The thread may be slow to start on a busy machine: the long timeout costs nothing when the
    // hand-back comes, as it ends the wait.
    let execution = try await DeterministicScheduler.run(configuration: SchedulerConfiguration(outsideWorldTimeout: .seconds(20))) {
      await withCheckedContinuation { continuation in
        // Resumed too soon, before the root suspends, the continuation would not suspend at all.
        Thread.detachNewThread {
          Thread.sleep(forTimeInterval: 0.05)
          continuation.resume()
        }
      }
    }
    #expect(execution.trace.events.contains { $0.fromOutside && $0.task == TaskID(0) })
    #expect(execution.trace.stepsWithWorkFromOutside == [1])
  }
}

private struct Failure: Error {}

private actor Counter {
  var count = 0
  func incrementInChildTask() async -> Int {
    // The closure is isolated to this actor, so it may touch `count` synchronously.
    await Task.effect { self.count += 1 }.value
    return count
  }
}

private enum Context {
  @TaskLocal static var value = "none"
}

@Suite("Task-local values")
struct TaskLocalTests {
  @Test("the program and its tasks inherit the caller's task-local values")
  func inherited() async throws {
    let execution = try await Context.$value.withValue("caller") {
      try await DeterministicScheduler.run {
        let child = Task.effect { Context.value }
        return [Context.value, await child.value]
      }
    }
    #expect(execution.value == ["caller", "caller"])
  }
}
