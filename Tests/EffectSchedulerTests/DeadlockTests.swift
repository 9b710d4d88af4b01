import EffectScheduler
import Foundation
import Effects
import Synchronization
import Testing

/// Holds a continuation until someone resumes it.
private final class Parking: @unchecked Sendable {
  private let lock = NSLockLike()
  private var continuation: CheckedContinuation<Void, Never>?

  func wait() async {
    await withCheckedContinuation { continuation in lock.withLock { self.continuation = continuation } }
  }

  func release() {
    lock.withLock { continuation }?.resume()
  }
}

@Suite("Deadlock and stall detection")
struct DeadlockTests {
  static let quick = SchedulerConfiguration(outsideWorldTimeout: .milliseconds(200))

  @Test("a plain task left waiting by a deadlocked run goes on, on the global executor, once resumed after it")
  func plainTaskLeftBehindGoesOn() async throws {
    let parking = Parking()
    let finished = Finished()
    await #expect(throws: SchedulerError.self) {
      _ = try await DeterministicScheduler.run(configuration: Self.quick) {
        Task {
          await parking.wait()
          await Task.yield()
          finished.flag.store(true, ordering: .releasing)
        }
        await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
      }
    }
    // The run's task stays suspended until the test resumes it, then finishes by itself.
    parking.release()
    for _ in 0..<500 where !finished.flag.load(ordering: .acquiring) {
      try await Task.sleep(for: .milliseconds(10))
    }
    let didFinish = finished.flag.load(ordering: .acquiring)
    #expect(didFinish)
  }

  @Test("two tasks each waiting for the other are reported by name, without hanging")
  func twoContinuations() async throws {
    let error = try await #require(throws: SchedulerError.self) {
      try await DeterministicScheduler.run(configuration: Self.quick) {
        let a = Parking()
        let b = Parking()
        let first = Task.effect(name: "A") {
          await a.wait()  // only B releases A, after B's own wait
          b.release()
        }
        let second = Task.effect(name: "B") {
          await b.wait()
          a.release()
        }
        await first.value
        await second.value
      }
    }
    guard case .deadlock(let blocked) = error.reason else {
      Issue.record("expected a deadlock, got \(error.summary)")
      return
    }
    #expect(Set(blocked.compactMap(\.task.name)) == ["root", "A", "B"])
    #expect(error.summary.contains("#1 A"))
    #expect(error.summary.contains("#2 B"))
    #expect(error.description.contains("trace:"))
  }

  @Test("two tasks awaiting each other's value are each reported as waiting on the other")
  func tasksAwaitingEachOther() async throws {
    let error = try await #require(throws: SchedulerError.self) {
      try await DeterministicScheduler.run(configuration: Self.quick) {
        let handles = TaskHandles()
        let a = Task.effect(name: "A") { await handles.waitForB() }
        handles.b = Task.effect(name: "B") { await a.value }
        await a.value
      }
    }
    let blocked = try #require(Self.deadlocked(error))
    #expect(blocked.map(\.task.description) == ["#0 root", "#1 A", "#2 B"])
    #expect(blocked.map(\.waitingOn) == ["task #1 A", "task #2 B", "task #1 A"])
    #expect(error.summary.contains("#1 A, suspended after step 1, waiting on task #2 B"), "\(error.summary)")
  }

  @Test("a task awaiting a continuation nobody holds any more is reported as such")
  func continuationNobodyResumes() async throws {
    let error = try await #require(throws: SchedulerError.self) {
      try await DeterministicScheduler.run(configuration: Self.quick) {
        await Task.effect(name: "forgotten") {
          // An unsafe continuation, so that dropping it is not reported as misuse.
          await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
        }.value
      }
    }
    let blocked = try #require(Self.deadlocked(error))
    #expect(blocked.map(\.waitingOn) == ["task #1 forgotten", "a continuation that no task of the program can resume any more"])
  }

  @Test("a task awaiting an AsyncStream nobody feeds is reported as waiting on the stream")
  func streamNobodyFeeds() async throws {
    let error = try await #require(throws: SchedulerError.self) {
      try await DeterministicScheduler.run(configuration: Self.quick) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let reader = Task.effect(name: "reader") {
          for await _ in stream {}
        }
        await reader.value
        continuation.finish()  // never reached: the root waits on the reader first
      }
    }
    let blocked = try #require(Self.deadlocked(error))
    #expect(blocked.map(\.waitingOn) == ["task #1 reader", "an AsyncStream that no task of the program can feed any more"], "\(error.summary)")
  }

  @Test("a task waiting for its turn on an actor whose executor never runs it is reported as such")
  func actorOnExecutorThatNeverRuns() async throws {
    let error = try await #require(throws: SchedulerError.self) {
      try await DeterministicScheduler.run(configuration: Self.quick) {
        let stuck = ActorOnIdleExecutor()
        await Task.effect(name: "caller") { await stuck.greet() }.value
      }
    }
    let blocked = try #require(Self.deadlocked(error))
    #expect(blocked.map(\.waitingOn) == ["task #1 caller", "its turn on an executor outside the scheduler's control"])
  }

  /// The blocked tasks of a deadlock, or `nil` with an issue recorded for any other error.
  static func deadlocked(_ error: SchedulerError) -> [BlockedTask]? {
    guard case .deadlock(let blocked) = error.reason else {
      Issue.record("expected a deadlock, got \(error.summary)")
      return nil
    }
    return blocked
  }

  @Test("a program waiting on another thread that never answers is reported as a stall")
  func stallOnOutsideWorld() async throws {
    let error = try await #require(throws: SchedulerError.self) {
      try await DeterministicScheduler.run(configuration: Self.quick) {
        // One round trip through a thread the scheduler does not own...
        // (resumed once the root has surely suspended: a continuation resumed before its task
        // suspends lets the task go on without handing the scheduler a job)...
        await withCheckedContinuation { continuation in
          Thread.detach(after: .milliseconds(50)) { continuation.resume() }
        }
        // ...then a wait nobody ends.
        await Parking().wait()
      }
    }
    guard case .stalled(let waited, let blocked) = error.reason else {
      Issue.record("expected a stall, got \(error.summary)")
      return
    }
    #expect(waited == .milliseconds(200))
    #expect(blocked.map(\.task.name) == ["root"])
    #expect(error.trace.events.contains { $0.fromOutside })
  }

  @Test("work that takes a while on another thread is waited for")
  func slowOutsideWorld() async throws {
    let execution = try await DeterministicScheduler.run(configuration: Self.quick) {
      await withCheckedContinuation { continuation in
        Thread.detach(after: .milliseconds(50)) { continuation.resume() }
      }
      return 42
    }
    #expect(execution.value == 42)
  }

  @Test("a program that never stops yielding hits the step limit")
  func livelock() async throws {
    let error = try await #require(throws: SchedulerError.self) {
      try await DeterministicScheduler.run(configuration: SchedulerConfiguration(maxSteps: 500)) {
        while true { await Task.yield() }
      }
    }
    #expect(error.reason == .stepLimitExceeded(limit: 500, fairAfter: 10_000))
    #expect(error.summary.contains("possible livelock"))
  }

  @Test("the error of a livelock 30,000 steps long describes itself in a few thousand characters")
  func livelockDescriptionIsBounded() async throws {
    let error = try await #require(throws: SchedulerError.self) {
      try await DeterministicScheduler.run(strategy: .random(seed: 7), configuration: SchedulerConfiguration(maxSteps: 30_000)) {
        let other = Task { while true { await Task.yield() } }
        while true { await Task.yield() }
        await other.value
      }
    }
    #expect(error.trace.steps == 30_000)
    let description = error.description
    #expect(description.count < 20_000, "\(description.count) characters")
    #expect(description.contains("earlier steps not shown"))
    #expect(description.contains("characters in all"), "the schedule is cut too")
  }
}

@Suite("Work left when the program finishes")
struct LateWorkTests {
  @Test("a task still waiting when the program finishes is listed, and finishes later outside the scheduler")
  func unfinishedTaskRunsLate() async throws {
    let finished = NSLockLike()
    let flag = FlagBox()
    // Left behind on purpose: with leaks reported, the run would wait for the thread instead.
    var configuration = SchedulerConfiguration()
    configuration.reportsLeakedTasks = false
    let execution = try await DeterministicScheduler.run(configuration: configuration) {
      Task.effect(name: "straggler") {
        await withCheckedContinuation { continuation in
          Thread.detach(after: .milliseconds(50)) { continuation.resume() }
        }
        finished.withLock { flag.value = true }
      }
    }
    #expect(execution.unfinishedTasks.map(\.name) == ["straggler"])
    // Bounded wait for the late job to run on the scheduler's late queue.
    for _ in 0..<200 where !finished.withLock({ flag.value }) {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(finished.withLock { flag.value })
  }
}

/// A flag another thread raises.
private final class Finished: Sendable {
  let flag = Atomic<Bool>(false)
}

private final class FlagBox: @unchecked Sendable {
  var value = false
}

/// Lets task A await task B, which is created after A.
private final class TaskHandles: @unchecked Sendable {
  var b: Task<Void, Never>?

  func waitForB() async {
    // B exists by the time A first runs: the root creates both before it suspends.
    await b?.value
  }
}

/// An executor that keeps every job it is given and never runs one.
private final class IdleExecutor: SerialExecutor, @unchecked Sendable {
  private let lock = NSLockLike()
  private var jobs: [UnownedJob] = []

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    lock.withLock { jobs.append(job) }
  }
}

/// An actor whose code would run on an ``IdleExecutor``: nobody who calls it gets its turn.
private actor ActorOnIdleExecutor {
  private let executor = IdleExecutor()
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  func greet() {}
}
