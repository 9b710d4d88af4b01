import BugCatalogue
import EffectScheduler
import Effects
import Explore
import ExploreTesting
import Foundation
import Synchronization
import Testing

/// Set once the holder of the lock has let go of it: after the run, outside its control.
private final class LetGo: Sendable {
  private let flag = Atomic(false)
  func set() { flag.store(true, ordering: .releasing) }
  var isSet: Bool { flag.load(ordering: .acquiring) }
}

/// A task that holds an `EffectLock` and awaits a task that waits for that lock: a deadlock, which
/// the run reports. Once the run is abandoned, the waiter goes on outside its control and wakes
/// the holder, a task the run adopted, whose job the run hands to the global executor: that
/// hand-off once went round the runtime's hooks and the run's mailbox until the stack overflowed.
@Suite("A lock held across an await of the task that waits for it")
struct LockHeldAcrossAwaitTests {
  /// Bounds the run should its deadlock go unseen: it is reported at once.
  static let quick = SchedulerConfiguration(outsideWorldTimeout: .milliseconds(200))

  /// The root awaits the holder, which takes the lock, starts the waiter and awaits it.
  fileprivate static func program(_ spawn: Spawn, letGo: LetGo = LetGo()) -> @Sendable () async -> Void {
    {
      let lock = EffectLock()
      let holder = spawn(name: "holder") {
        lock.lock()
        let waiter = spawn(name: "waiter") { lock.withLock {} }
        await waiter.value
        lock.unlock()
        letGo.set()
      }
      await holder.value
    }
  }

  /// Checks that `error` is the deadlock of ``program(_:letGo:)``, naming both tasks and the lock.
  static func expectDeadlockNamingBoth(_ error: SchedulerError, sourceLocation: SourceLocation = #_sourceLocation) {
    guard case .deadlock(let blocked) = error.reason else {
      Issue.record("expected a deadlock, got \(error.summary)", sourceLocation: sourceLocation)
      return
    }
    #expect(blocked.map(\.task.description) == ["#0 root", "#1 holder", "#2 waiter"], "\(error.summary)", sourceLocation: sourceLocation)
    #expect(blocked.map(\.isPaused) == [false, false, true], "\(error.summary)", sourceLocation: sourceLocation)
    #expect(blocked[1].waitingOn == "task #2 waiter", "\(error.summary)", sourceLocation: sourceLocation)
    let lockWait = blocked[2].waitingOn ?? ""
    #expect(lockWait.hasPrefix("EffectLock #0 (made at ExploreTests/LockHeldAcrossAwaitTests.swift:"), "\(lockWait)", sourceLocation: sourceLocation)
    #expect(lockWait.hasSuffix("), held by task #1 holder"), "\(lockWait)", sourceLocation: sourceLocation)
    #expect(error.summary.contains("#2 waiter, paused in step"), "\(error.summary)", sourceLocation: sourceLocation)
  }

  @Test("a single FIFO run reports the deadlock, naming the holder, the waiter and the lock", arguments: Spawn.allCases)
  func fifoRun(spawn: Spawn) async throws {
    let error = try await #require(throws: SchedulerError.self) {
      try await DeterministicScheduler.run(strategy: .fifo, configuration: Self.quick, operation: Self.program(spawn))
    }
    Self.expectDeadlockNamingBoth(error)
  }

  @Test("the exhaustive search reports the deadlock, naming the holder, the waiter and the lock", arguments: Spawn.allCases)
  func exhaustiveSearch(spawn: Spawn) async throws {
    var configuration = ExploreConfiguration(progressInterval: nil)
    configuration.scheduler.outsideWorldTimeout = .milliseconds(200)
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: configuration, Self.program(spawn))
    }
    let error = try #require(failure.underlyingError as? SchedulerError, "\(failure)")
    Self.expectDeadlockNamingBoth(error)
  }

  @Test("after the report the holder, woken outside the run, goes on on the global executor and lets go of the lock",
    arguments: Spawn.allCases)
  func holderGoesOnAfterTheRun(spawn: Spawn) async throws {
    let letGo = LetGo()
    await #expect(throws: SchedulerError.self) {
      try await DeterministicScheduler.run(strategy: .fifo, configuration: Self.quick, operation: Self.program(spawn, letGo: letGo))
    }
    for _ in 0..<500 where !letGo.isSet {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(letGo.isSet)
  }
}
