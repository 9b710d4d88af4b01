import BugCatalogue
@testable import EffectScheduler
import Effects
@testable import Explore
import ExploreTesting
import Foundation
import Synchronization
import Testing

/// What tasks appended, in order, behind the drop-in mutex.
private final class ControlledLog: Sendable {
  private let entries = EffectMutex<[String]>([])
  func append(_ entry: String) { entries.withLock { $0.append(entry) } }
  var all: [String] { entries.withLock { $0 } }
}

@Suite("Drop-in locks and atomics under the scheduler")
struct ControlledSynchronizationTests {
  /// Two producers and two consumers exchange two elements through the lock-based channel.
  static func exchange(_ spawn: Spawn, _ report: AllOutcomes.Report) async {
    let channel = LockedChannel(EffectLock())
    let got = ControlledLog()
    let producers = [1, 2].map { element in spawn(name: "send \(element)") { await channel.send(element) } }
    let consumers = ["a", "b"].map { name in
      spawn(name: "receive \(name)") {
        if let element = await channel.next() { got.append("\(name)\(element)") }
      }
    }
    for producer in producers { await producer.value }
    channel.finish()
    for consumer in consumers { await consumer.value }
    report.finalState(got.all.sorted().joined(separator: ","))
  }

  @Test("a lock-based channel: the reduced search runs to its end and sees every outcome of a two-producer, two-consumer exchange",
    arguments: Spawn.allCases)
  func channelOutcomes(spawn: Spawn) async {
    let reduced = await AllOutcomes.of(ReducedDepthFirstSearch(), limit: 20_000) { await Self.exchange(spawn, $0) }
    #expect(reduced.complete)
    #expect(reduced.outcomes == ["finished: a1,b2", "finished: a2,b1"], "\(reduced.outcomes)")
    // The full search has far more schedules than a test can run (each lock is a scheduling
    // point): the outcomes of its first ones are among the reduced search's.
    let full = await AllOutcomes.of(DepthFirstSearch(), limit: 2_000) { await Self.exchange(spawn, $0) }
    #expect(full.outcomes.isSubset(of: reduced.outcomes), "\(full.outcomes)")
    #expect(reduced.schedules < 20_000)
  }

  @Test("two appends behind a mutex, which never suspend: both orders are seen, by the full and the reduced search",
    arguments: Spawn.allCases)
  func mutexOrderRace(spawn: Spawn) async {
    let program: @Sendable (AllOutcomes.Report) async -> Void = { report in
      let log = ControlledLog()
      let first = spawn(name: "first") { log.append("1") }
      let second = spawn(name: "second") { log.append("2") }
      _ = await (first.value, second.value)
      report.finalState(log.all.joined())
    }
    let full = await AllOutcomes.of(DepthFirstSearch(), program)
    #expect(full.outcomes == ["finished: 12", "finished: 21"], "\(full.outcomes)")
    await AllOutcomes.expectReducedSearchSeesEverything(limit: 1_000, "mutex order, \(spawn)", program)
  }

  @Test("a task that unlocks a lock it does not hold ends the run, naming the lock, the tasks and the call")
  func unlockByNonOwner() async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: ExploreConfiguration(progressInterval: nil)) {
        let lock = EffectLock()
        lock.lock()
        let intruder = Task.effect(name: "intruder") { lock.unlock() }
        await intruder.value
        lock.unlock()
      }
    }
    let error = try #require(failure.underlyingError as? SchedulerError)
    guard case .lockMisused(let message) = error.reason else { Issue.record("\(error.reason)"); return }
    #expect(message.contains("task #1 intruder unlocked EffectLock #0 (made at ExploreTests/ControlledSynchronizationTests.swift:67), which task #0 root holds"), "\(message)")
    #expect(message.contains("ControlledSynchronizationTests.swift:"), "\(message)")
  }

  /// A wait whose continuation is stored under a lock, and whose cancellation handler takes the
  /// same lock: correct, as the handler only blocks until the waiter lets go.
  final class CancellableWait: @unchecked Sendable {
    private let lock = EffectLock()
    private let entries = EffectAtomic(0)
    private var waiter: CheckedContinuation<Void, any Error>?

    func wait() async throws {
      try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
          lock.lock()
          // A scheduling point while the lock is held.
          entries.wrappingAdd(1, ordering: .relaxed)
          if Task.isCancelled {
            lock.unlock()
            continuation.resume(throwing: CancellationError())
            return
          }
          waiter = continuation
          lock.unlock()
        }
      } onCancel: {
        lock.lock()
        let stored = waiter
        waiter = nil
        lock.unlock()
        stored?.resume(throwing: CancellationError())
      }
    }
  }

  @Test("a cancellation handler waiting for a lock another task holds is no failure: those runs stop unjudged, and the summary says so")
  func handlerWaitsForLock() async throws {
    let summary = try await explore(.exhaustive, configuration: ExploreConfiguration(progressInterval: nil)) {
      let wait = CancellableWait()
      let waiter = Task.effect(name: "waiter") { try? await wait.wait() }
      let canceller = Task.effect(name: "canceller") { waiter.cancel() }
      await canceller.value
      await waiter.value
    }
    #expect(!summary.exploredEverySchedule)
    let unexplored = try #require(summary.unexplored)
    #expect(unexplored.contains("task #2 canceller waited in a cancellation handler for EffectLock #0 (made at ExploreTests/ControlledSynchronizationTests.swift:83), held by task #1 waiter"), "\(unexplored)")
  }

  @Test("a lock held across an await by a task that waits for the task needing it is a deadlock naming the lock and its holder")
  func lockHeldAcrossAwait() async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: .deadlocking) {
        let lock = EffectLock()
        lock.lock()
        let helper = Task.effect(name: "helper") { lock.withLock {} }
        await helper.value
        lock.unlock()
      }
    }
    let error = try #require(failure.underlyingError as? SchedulerError)
    guard case .deadlock(let blocked) = error.reason else { Issue.record("\(error.reason)"); return }
    #expect(blocked.contains { $0.waitingOn == "EffectLock #0 (made at ExploreTests/ControlledSynchronizationTests.swift:129), held by task #0 root" && $0.isPaused }, "\(blocked)")
    #expect(failure.summary.contains("#1 helper, paused in step"), "\(failure.summary)")
  }

  @Test("outside any scheduler the drop-ins are plain locks and atomics")
  func outsideAScheduler() async {
    let counter = EffectMutex(0)
    let hits = EffectAtomic(0)
    let lock = EffectLock()
    nonisolated(unsafe) var guarded = 0
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask {
          for _ in 0..<1_000 {
            counter.withLock { $0 += 1 }
            hits.wrappingAdd(1, ordering: .relaxed)
            lock.withLock { guarded += 1 }
          }
        }
      }
    }
    #expect(counter.withLock { $0 } == 4_000)
    #expect(hits.load(ordering: .relaxed) == 4_000)
    #expect(lock.withLock { guarded } == 4_000)
    #expect(lock.try())
    #expect(!lock.try())
    lock.unlock()
    #expect(counter.withLockIfAvailable { $0 } == 4_000)
  }
}

/// Entries that tasks append to behind an `EffectLock` they share.
private final class GuardedEntries: @unchecked Sendable {
  var entries: [String] = []
}

/// A tally kept by an actor, whose methods also take a lock the tasks share.
private actor LockedTally {
  private let lock: EffectLock
  private var log: [String] = []
  init(lock: EffectLock) { self.lock = lock }
  func add(_ entry: String, to shared: GuardedEntries) {
    lock.withLock { shared.entries.append(entry) }
    log.append(entry)
  }
}

/// The main actor's side of a program whose main-actor code takes a lock.
@MainActor private func addOnMainActor(_ entry: String, lock: EffectLock, to shared: GuardedEntries) {
  lock.withLock { shared.entries.append(entry) }
}

extension ControlledSynchronizationTests {
  @Test("jobs pause inside an actor's method and in main-actor code: every order of the critical sections is seen", arguments: Spawn.allCases)
  func pausesOnActors(spawn: Spawn) async {
    let program: @Sendable (AllOutcomes.Report) async -> Void = { report in
      let lock = EffectLock()
      let shared = GuardedEntries()
      let tally = LockedTally(lock: lock)
      let onActor = spawn(name: "actor") { await tally.add("a", to: shared) }
      let onMain = spawn(name: "main") { await addOnMainActor("m", lock: lock, to: shared) }
      let plain = spawn(name: "plain") { lock.withLock { shared.entries.append("p") } }
      _ = await (onActor.value, onMain.value, plain.value)
      report.finalState(lock.withLock { shared.entries.joined() })
    }
    let full = await AllOutcomes.of(DepthFirstSearch(), limit: 20_000, program)
    #expect(full.complete)
    #expect(full.outcomes == Set(["amp", "apm", "map", "mpa", "pam", "pma"].map { "finished: \($0)" }), "\(full.outcomes)")
    await AllOutcomes.expectReducedSearchSeesEverything(limit: 20_000, "actors, \(spawn)", program)
  }
}

/// Appends `entry` twice behind `lock`, in one synchronous stretch of main-actor code.
@MainActor private func appendTwiceOnMainActor(_ entry: String, lock: EffectLock, to shared: GuardedEntries) {
  lock.withLock { shared.entries.append(entry) }
  lock.withLock { shared.entries.append(entry) }
}

extension ControlledSynchronizationTests {
  @Test("a main-actor job that pauses keeps the main actor: another main-actor job never runs in between", arguments: Spawn.allCases)
  func pausedMainActorJobKeepsTheMainActor(spawn: Spawn) async {
    let program: @Sendable (AllOutcomes.Report) async -> Void = { report in
      let lock = EffectLock()
      let shared = GuardedEntries()
      let first = spawn(name: "a") { await appendTwiceOnMainActor("a", lock: lock, to: shared) }
      let second = spawn(name: "b") { await appendTwiceOnMainActor("b", lock: lock, to: shared) }
      let plain = spawn(name: "plain") { lock.withLock { shared.entries.append("p") } }
      _ = await (first.value, second.value, plain.value)
      report.finalState(lock.withLock { shared.entries.joined() })
    }
    let full = await AllOutcomes.of(DepthFirstSearch(), limit: 20_000, program)
    #expect(full.complete)
    #expect(full.outcomes.contains("finished: apabb") && full.outcomes.contains("finished: bbaap"), "\(full.outcomes)")
    let interleaved = full.outcomes.filter { $0.contains("ab") && $0.contains("ba") || $0.contains("abab") || $0.contains("baba") }
    #expect(interleaved.isEmpty, "\(interleaved)")
  }
}

/// A log behind an `NSLock`, which the scheduler does not control.
private final class NSLockedLog: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [String] = []
  func append(_ entry: String) { lock.withLock { entries.append(entry) } }
}

#if os(Linux) && _pointerBitWidth(_64)
  /// A log behind a `pthread_rwlock_t`, as swift-log keeps its registry.
  private final class ReadWriteLockedLog: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
    private var entries: [String] = []
    init() { pthread_rwlock_init(lock, nil) }
    deinit {
      pthread_rwlock_destroy(lock)
      lock.deallocate()
    }
    func append(_ entry: String) {
      pthread_rwlock_wrlock(lock)
      defer { pthread_rwlock_unlock(lock) }
      entries.append(entry)
    }
  }
#endif

/// Two tasks, each appending one entry through `append`, awaited.
private func twoTasksAppending(_ append: @escaping @Sendable (String) -> Void) async {
  let first = Task.effect(name: "first") { append("1") }
  let second = Task.effect(name: "second") { append("2") }
  _ = await (first.value, second.value)
}

extension ControlledSynchronizationTests {
  @Test("the summary says when steps took an NSLock or a read–write lock, and only then: not for the drop-ins, a task group or an AsyncStream")
  func summaryTellsUncontrolledLocks() async throws {
    let quiet = ExploreConfiguration(progressInterval: nil)
    let onNSLock = try await explore(.exhaustive, configuration: quiet) {
      let log = NSLockedLog()
      await twoTasksAppending { log.append($0) }
    }
    #if os(Linux) && _pointerBitWidth(_64)
      #expect(onNSLock.tookUncontrolledLocks)
      #expect(onNSLock.description.contains("steps took an NSLock, pthread_mutex_t or pthread_rwlock_t, which the scheduler does not control"))
    #endif
    #expect(onNSLock.claimsEverySchedule(assuming: [.uncontrolledLocksRanWhole]))
    #if os(Linux) && _pointerBitWidth(_64)
      // Pausing between critical sections, a step's only one runs where the step does: nothing is
      // assumed.
      var between = quiet
      between.scheduler.pausesBetweenCriticalSections = true
      let pausing = try await explore(.exhaustive, configuration: between) {
        let log = NSLockedLog()
        await twoTasksAppending { log.append($0) }
      }
      #expect(pausing.exploredEverySchedule, "\(pausing)")
    #endif
    #if os(Linux) && _pointerBitWidth(_64)
      let onReadWriteLock = try await explore(.exhaustive, configuration: quiet) {
        let log = ReadWriteLockedLog()
        await twoTasksAppending { log.append($0) }
      }
      #expect(onReadWriteLock.tookUncontrolledLocks)
    #endif
    let onDropIns = try await explore(.exhaustive, configuration: quiet) {
      let log = ControlledLog()
      let hits = EffectAtomic(0)
      let first = Task.effect(name: "first") { log.append("1") }
      let second = Task.effect(name: "second") { hits.wrappingAdd(1, ordering: .relaxed) }
      _ = await (first.value, second.value)
      await withTaskGroup(of: Int.self) { group in
        for child in 0..<2 { group.addTask { child } }
        for await _ in group {}
      }
      let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
      let producer = Task.effect(name: "producer") {
        continuation.yield(1)
        continuation.finish()
      }
      for await _ in stream {}
      await producer.value
    }
    #expect(!onDropIns.tookUncontrolledLocks, "\(onDropIns)")
    #expect(!onDropIns.description.contains("NSLock"))
  }

  @Test(
    "every search notes the locks its steps take (a reduced one in every run, the others in their first), with one searcher or two: its summary says so without the determinism check, and only then",
    arguments: [ExplorationStrategy.reduced, .exhaustive, .random(schedules: 20), .pct(depth: 2, schedules: 20), .preemptionBounded(1)], [1, 2])
  func searchesTellUncontrolledLocksWithoutTheCheck(strategy: ExplorationStrategy, searchers: Int) async throws {
    var unchecked = ExploreConfiguration(progressInterval: nil)
    unchecked.checksDeterminism = false
    unchecked.searchers = searchers
    let onNSLock = try await explore(strategy, configuration: unchecked) {
      let log = NSLockedLog()
      await twoTasksAppending { log.append($0) }
    }
    #if os(Linux) && _pointerBitWidth(_64)
      #expect(onNSLock.tookUncontrolledLocks, "\(onNSLock)")
      #expect(onNSLock.description.contains("or between two of them in one step"))
    #endif
    let onDropIns = try await explore(strategy, configuration: unchecked) {
      let log = ControlledLog()
      await twoTasksAppending { log.append($0) }
    }
    #expect(!onDropIns.tookUncontrolledLocks, "\(onDropIns)")
  }
}
