import EffectScheduler
import Foundation
import Effects
import Explore
import ExploreTesting
import Synchronization
import Testing

/// Counts wake-ups.
private final class WakeUps: Sendable {
  let count = Mutex(0)
}

/// Where a continuation is parked and never resumed.
private final class Parked: Sendable {
  let continuation = Mutex<CheckedContinuation<Void, Never>?>(nil)
}

@Suite("Tasks the body leaves unfinished fail the run")
struct LeakedTaskTests {
  static let configuration = ExploreConfiguration(progressInterval: nil)

  @Test("a task waiting on a continuation nobody resumes, when the body returns: leaked, named with its wait",
    arguments: [ExplorationStrategy.exhaustive, .reduced(), .default])
  func continuationNeverResumed(strategy: ExplorationStrategy) async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(strategy, configuration: Self.configuration) {
        let parked = Parked()
        Task.effect(name: "waiter") {
          await withCheckedContinuation { continuation in parked.continuation.withLock { $0 = continuation } }
        }
        await Task.yield()
      }
    }
    #expect(failure.summary.contains("leaked tasks"), "\(failure.summary)")
    #expect(failure.summary.contains("#1 waiter"), "\(failure.summary)")
    #expect(failure.summary.contains("a continuation that no task of the program can resume any more"), "\(failure.summary)")
  }

  @Test("plain tasks too: one iterating a stream nothing feeds, and one awaiting it")
  func streamNothingFeeds() async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: Self.configuration) {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let consumer = Task(name: "consumer") { for await _ in stream {} }
        Task(name: "watcher") { await consumer.value }
        continuation.yield(1)
        _ = continuation  // never finished
      }
    }
    #expect(failure.summary.contains("leaked tasks"), "\(failure.summary)")
    #expect(failure.summary.contains("an AsyncStream that no task of the program can feed any more"), "\(failure.summary)")
    #expect(failure.summary.contains("waiting on task #1"), "\(failure.summary)")
  }

  @Test("an unnamed plain task left behind is named by where it was created")
  func unnamedTaskNamedByItsPlace() async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: Self.configuration) {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        Task { for await _ in stream {} }
        _ = continuation
      }
    }
    #if os(Linux) && _pointerBitWidth(_64)
      #expect(failure.summary.contains("#1 Task at LeakedTaskTests.swift:"), "\(failure.summary)")
    #endif
    #expect(failure.summary.contains("an AsyncStream that no task of the program can feed any more"), "\(failure.summary)")
  }

  @Test("a task left sleeping finishes once the body returns, on the virtual clock: no leak")
  func sleeperFinishes() async throws {
    let woke = WakeUps()
    let summary = try await explore(.exhaustive, configuration: Self.configuration) {
      Task {
        try? await Task.sleep(for: .seconds(5))
        woke.count.withLock { $0 += 1 }
      }
    }
    #expect(summary.exploredEverySchedule, "\(summary)")
    #expect(woke.count.withLock { $0 } == summary.schedules + 1, "every run, the determinism check's own among them, let it wake")
  }

  @Test("a task a thread resumes after the body returned is waited for, and finishes in the run")
  func resumedFromAThread() async throws {
    let execution = try await DeterministicScheduler.run {
      Task.effect(name: "straggler") {
        await withCheckedContinuation { continuation in
          Thread.detachNewThread {
            usleep(50_000)
            continuation.resume()
          }
        }
      }
    }
    #expect(execution.unfinishedTasks.isEmpty)
  }

  @Test("a loop that never ends, left running when the body returns, is reported after a bounded number of steps")
  func loopThatNeverEnds() async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: Self.configuration) {
        Task(name: "poller") {
          while true { try await Task.sleep(for: .seconds(1)) }
        }
      }
    }
    #expect(failure.summary.contains("leaked tasks"), "\(failure.summary)")
    #expect(failure.summary.contains("still running \(DeterministicScheduler.stepsForLeftTasks) steps after it returned"), "\(failure.summary)")
    #expect(failure.summary.contains("poller"), "\(failure.summary)")
  }

  @Test("a test that leaves tasks on purpose opts out, and the run lists them as unfinished")
  func optingOut() async throws {
    var configuration = SchedulerConfiguration()
    configuration.reportsLeakedTasks = false
    let parked = Parked()
    let execution = try await DeterministicScheduler.run(configuration: configuration) {
      Task.effect(name: "waiter") {
        await withCheckedContinuation { continuation in parked.continuation.withLock { $0 = continuation } }
      }
      await Task.yield()
    }
    #expect(execution.unfinishedTasks.map(\.name) == ["waiter"])
    parked.continuation.withLock { $0?.resume() }
  }
}
