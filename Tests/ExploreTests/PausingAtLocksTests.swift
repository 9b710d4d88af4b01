import EffectScheduler
import Effects
import Explore
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A counter whose increment reads it in one critical section and writes it in another, behind
/// the lock of the conforming type: an increment of another task in between is lost.
private protocol TwoSectionCounter: AnyObject, Sendable {
  init()
  func read() -> Int
  func write(_ value: Int)
}

extension TwoSectionCounter {
  func incrementInTwoSections() { write(read() + 1) }
}

#if canImport(Glibc)
  /// An `NSLock`, or a `pthread_rwlock_t` taken for writing or for reading: the outer lock of the
  /// lock-order inversions below.
  private struct OuterLock: Sendable {
    private let plain = NSLock()
    private let readWrite: PlatformReadWriteLock?

    init(readWrite: Bool) { self.readWrite = readWrite ? PlatformReadWriteLock() : nil }

    func take(writing: Bool, _ body: () -> Void) {
      guard let readWrite else { return plain.withLock(body) }
      if writing { readWrite.withWriterLock(body) } else { readWrite.withReaderLock(body) }
    }
  }
#endif

/// How one task holds a read–write lock, and whether another takes it for reading.
struct ReadWriteHolds: Sendable, CustomTestStringConvertible {
  let writing: Bool
  let observerReads: Bool
  static let all = [true, false].flatMap { writing in [false, true].map { ReadWriteHolds(writing: writing, observerReads: $0) } }
  var testDescription: String { "held for \(writing ? "writing" : "reading"), observer \(observerReads ? "reads under it" : "does not take it")" }
}

/// The order in which tasks passed a point.
private final class OrderLog: Sendable {
  let entries = Mutex<[String]>([])
}

/// Behind an `NSLock`.
private final class NSLockCounter: TwoSectionCounter, @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  init() {}
  func read() -> Int { lock.withLock { value } }
  func write(_ value: Int) { lock.withLock { self.value = value } }
  /// Holds the lock for `microseconds`, calling `didTake` once it has it.
  func hold(for microseconds: UInt32, didTake: () -> Void) {
    lock.withLock {
      didTake()
      usleep(microseconds)
    }
  }
}

#if os(Linux) && _pointerBitWidth(_64)
  /// Behind a `pthread_mutex_t` on the heap.
  private final class MutexCounter: TwoSectionCounter, @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value = 0
    init() { pthread_mutex_init(mutex, nil) }
    deinit {
      pthread_mutex_destroy(mutex)
      mutex.deallocate()
    }
    func read() -> Int {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return value
    }
    func write(_ value: Int) {
      pthread_mutex_lock(mutex)
      self.value = value
      pthread_mutex_unlock(mutex)
    }
  }

  /// Behind a `pthread_rwlock_t`, read for reading and written for writing.
  private final class ReadWriteCounter: TwoSectionCounter, @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
    private var value = 0
    init() { pthread_rwlock_init(lock, nil) }
    deinit {
      pthread_rwlock_destroy(lock)
      lock.deallocate()
    }
    func read() -> Int {
      pthread_rwlock_rdlock(lock)
      defer { pthread_rwlock_unlock(lock) }
      return value
    }
    func write(_ value: Int) {
      pthread_rwlock_wrlock(lock)
      self.value = value
      pthread_rwlock_unlock(lock)
    }
  }
#endif

/// Two `NSLock`s, the inner one taken only inside the outer one.
private final class NestedLocksCounter: @unchecked Sendable {
  private let outer = NSLock()
  private let inner = NSLock()
  private var value = 0
  func increment() { outer.withLock { inner.withLock { value += 1 } } }
  func read() -> Int { outer.withLock { inner.withLock { value } } }
}

/// The final values of two tasks' increments in two critical sections each, over every schedule
/// `strategy` explores, with the summary.
private func finalValues<Counter: TwoSectionCounter>(
  of _: Counter.Type, _ strategy: ExplorationStrategy, pausing: Bool
) async throws -> (values: Set<Int>, summary: ExplorationSummary) {
  var configuration = ExploreConfiguration(progressInterval: nil)
  configuration.scheduler.pausesAtUncontrolledLocks = pausing
  let values = Mutex<Set<Int>>([])
  let summary = try await explore(strategy, configuration: configuration) {
    let counter = Counter()
    let first = Task.effect(name: "first") { counter.incrementInTwoSections() }
    let second = Task.effect(name: "second") { counter.incrementInTwoSections() }
    _ = await (first.value, second.value)
    let value = counter.read()
    values.withLock { _ = $0.insert(value) }
  }
  return (values.withLock { $0 }, summary)
}

/// What `work` returns, or `nil` when it has not finished within `limit`. The work runs in a task
/// of its own, polled, which a hang leaves behind: a task group would wait for it.
private func finishing<Value: Sendable>(within limit: Duration, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value? {
  let outcome = Mutex<Result<Value, any Error>?>(nil)
  Task.detached {
    let result: Result<Value, any Error>
    do { result = .success(try await work()) } catch { result = .failure(error) }
    outcome.withLock { $0 = result }
  }
  let deadline = ContinuousClock.now + limit
  while ContinuousClock.now < deadline {
    if let result = outcome.withLock({ $0 }) { return try result.get() }
    try await Task.sleep(for: .milliseconds(5))
  }
  return nil
}

/// How an exploration of `program` that pauses at uncontrolled locks (or, with `pausing` false,
/// does not) ended: its summary, or the failure it reported, put in words; `nil` when it has not
/// ended within two minutes, a hang.
/// Each of these explorations takes well under a second alone, but the whole suite starts its
/// tests at once on two cores, and there they took 18 to 23 seconds.
private func pausingExploration(
  _ strategy: ExplorationStrategy = .exhaustive, pausing: Bool = true, _ program: @escaping @Sendable () async throws -> Void
) async throws -> (summary: ExplorationSummary?, text: String)? {
  var configuration = ExploreConfiguration(progressInterval: nil)
  configuration.scheduler.pausesAtUncontrolledLocks = pausing
  return try await finishing(within: .seconds(120)) { [configuration] in
    do {
      let summary = try await explore(strategy, configuration: configuration, program)
      return (summary, "\(summary)")
    } catch {
      return (nil, "\(error)")
    }
  }
}

@Suite("Scheduling points at the acquires of locks the scheduler does not control (pausesAtUncontrolledLocks)")
struct PausingAtLocksTests {
  #if os(Linux) && _pointerBitWidth(_64)
    @Test(
      "an increment in two critical sections of one step: the lost update is found only where each acquire is a scheduling point, by either search",
      arguments: [ExplorationStrategy.exhaustive, .reduced])
    func lostUpdateBetweenCriticalSections(strategy: ExplorationStrategy) async throws {
      let plain = try await finalValues(of: NSLockCounter.self, strategy, pausing: false)
      #expect(plain.values == [2], "\(plain.summary)")
      #expect(plain.summary.tookUncontrolledLocks)
      let pausing = try await finalValues(of: NSLockCounter.self, strategy, pausing: true)
      #expect(pausing.values == [1, 2], "\(pausing.summary)")
      // Every acquire was a scheduling point: none is left uncontrolled.
      #expect(!pausing.summary.tookUncontrolledLocks, "\(pausing.summary)")
      if strategy == .exhaustive { #expect(pausing.summary.exploredEverySchedule) }
    }

    @Test("a pthread_mutex_t and a pthread_rwlock_t on the heap pause too: the lost update is found behind each")
    func lostUpdateBehindPthreadLocks() async throws {
      let mutex = try await finalValues(of: MutexCounter.self, .exhaustive, pausing: true)
      #expect(mutex.values == [1, 2], "\(mutex.summary)")
      let readWrite = try await finalValues(of: ReadWriteCounter.self, .exhaustive, pausing: true)
      #expect(readWrite.values == [1, 2], "\(readWrite.summary)")
      #expect(!readWrite.summary.tookUncontrolledLocks, "\(readWrite.summary)")
    }

    @Test("a main-actor job and a plain Task {} pause at the lock too: the lost update between them is found")
    func mainActorAndPlainTaskPause() async throws {
      var configuration = ExploreConfiguration(progressInterval: nil)
      configuration.scheduler.pausesAtUncontrolledLocks = true
      let values = Mutex<Set<Int>>([])
      let summary = try await explore(.exhaustive, configuration: configuration) {
        let counter = NSLockCounter()
        let onMain = Task { @MainActor in counter.incrementInTwoSections() }
        let plain = Task { counter.incrementInTwoSections() }
        _ = await (onMain.value, plain.value)
        let value = counter.read()
        values.withLock { _ = $0.insert(value) }
      }
      #expect(values.withLock { $0 } == [1, 2], "\(summary)")
      #expect(summary.exploredEverySchedule, "\(summary)")
    }

    @Test("a lock taken inside another is a scheduling point too: two tasks' nested critical sections, every schedule, none uncontrolled")
    func nestedLocksPause() async throws {
      var configuration = ExploreConfiguration(progressInterval: nil)
      configuration.scheduler.pausesAtUncontrolledLocks = true
      let values = Mutex<Set<Int>>([])
      let summary = try await explore(.exhaustive, configuration: configuration) {
        let counter = NestedLocksCounter()
        let tasks = (0..<2).map { index in Task.effect(name: "incrementer \(index)") { counter.increment() } }
        for task in tasks { await task.value }
        let value = counter.read()
        values.withLock { _ = $0.insert(value) }
      }
      #expect(values.withLock { $0 } == [2])
      #expect(summary.exploredEverySchedule, "\(summary)")
      #expect(!summary.tookUncontrolledLocks, "\(summary)")
    }

    @Test(
      "two locks taken in opposite orders (two NSLocks, or a pthread_rwlock_t and an NSLock): a deadlock that names both locks and their holders, found by either search",
      arguments: [ExplorationStrategy.exhaustive, .reduced], [false, true])
    func lockOrderInversion(strategy: ExplorationStrategy, readWrite: Bool) async throws {
      let ended = try await pausingExploration(strategy) {
        // Each task pauses at its inner lock's acquire, holding its outer one, and waits, paused,
        // for the task that holds the inner one.
        let accounts = OuterLock(readWrite: readWrite)
        let audit = NSLock()
        let transfer = Task.effect(name: "transfer") { accounts.take(writing: true) { audit.withLock {} } }
        let report = Task.effect(name: "report") { audit.withLock { accounts.take(writing: false) {} } }
        _ = await (transfer.value, report.value)
      }
      let text = try #require(ended, "the exploration hung").text
      #expect(text.contains("deadlock"), "\(text)")
      #expect(text.contains(readWrite ? "a pthread_rwlock_t" : "an NSLock or pthread_mutex_t"), "\(text)")
      #expect(text.contains("held by task #1 transfer"), "\(text)")
      #expect(text.contains("held by task #2 report"), "\(text)")
    }

    @Test("two pthread_rwlock_ts taken for writing in opposite orders: each task pauses holding one, and the deadlock names both")
    func inversionOfTwoReadWriteLocks() async throws {
      let ended = try await pausingExploration {
        let (accounts, audit) = (PlatformReadWriteLock(), PlatformReadWriteLock())
        let transfer = Task.effect(name: "transfer") { accounts.withWriterLock { audit.withWriterLock {} } }
        let report = Task.effect(name: "report") { audit.withWriterLock { accounts.withWriterLock {} } }
        _ = await (transfer.value, report.value)
      }
      let text = try #require(ended, "the exploration hung").text
      #expect(text.contains("deadlock"), "\(text)")
      #expect(!text.contains("NSLock"), "\(text)")
      #expect(text.contains("held by task #1 transfer") && text.contains("held by task #2 report"), "\(text)")
    }

    @Test("a cancellation handler that takes a lock a paused task holds: the holder goes on until it lets go, and the run stops, not judged, rather than hang")
    func handlerWaitsForAPausedHolder() async throws {
      let ended = try await pausingExploration {
        let state = NSLock()
        let log = NSLock()
        // Pauses holding `state`, before it takes `log`.
        let writer = Task.effect(name: "writer") { state.withLock { log.withLock {} } }
        let sleeper = Task.effect(name: "sleeper") {
          await withTaskCancellationHandler {
            try? await Task.sleep(for: .seconds(10))
          } onCancel: {
            state.withLock {}
          }
        }
        let canceller = Task.effect(name: "canceller") { sleeper.cancel() }
        _ = await (writer.value, sleeper.value, canceller.value)
      }
      let outcome = try #require(ended, "the exploration hung: a cancellation handler blocked on an NSLock a paused task held")
      let summary = try #require(outcome.summary, "\(outcome.text)")
      #expect(!summary.exploredEverySchedule, "\(summary)")
      #expect(summary.unexplored?.contains("cancellation handler") == true, "\(summary)")
    }

    @Test("a lock a thread outside the run holds for a moment: the task pauses, then waits for it as on real threads, and the run ends")
    func lockHeldOutsideTheRun() async throws {
      var configuration = ExploreConfiguration(progressInterval: nil)
      configuration.scheduler.pausesAtUncontrolledLocks = true
      let values = Mutex<[Int]>([])
      let summary = try await explore(.exhaustive, configuration: configuration) {
        let counter = NSLockCounter()
        let held = Mutex(false)
        let outside = Thread { counter.hold(for: 20_000) { held.withLock { $0 = true } } }
        outside.start()
        // Bounded: the thread takes the lock at once.
        for _ in 0..<1_000_000 where !held.withLock({ $0 }) { sched_yield() }
        let first = Task.effect(name: "first") { counter.incrementInTwoSections() }
        let second = Task.effect(name: "second") { counter.incrementInTwoSections() }
        _ = await (first.value, second.value)
        let value = counter.read()
        values.withLock { $0.append(value) }
      }
      #expect(summary.exploredEverySchedule, "\(summary)")
      #expect(Set(values.withLock { $0 }) == [1, 2], "\(summary)")
    }

    @Test(
      "a drop-in's scheduling point inside an NSLock's critical section pauses: a task that takes the NSLock meanwhile waits for it, paused, with the option or without",
      arguments: [true, false])
    func dropInInsideAnUncontrolledLock(pausing: Bool) async throws {
      let ended = try await pausingExploration(pausing: pausing) {
        let outer = NSLock()
        let inner = EffectLock()
        let nested = Task.effect(name: "nested") { outer.withLock { inner.withLock {} } }
        let plain = Task.effect(name: "plain") { outer.withLock {} }
        _ = await (nested.value, plain.value)
      }
      let outcome = try #require(ended, "the exploration hung: a task blocked on the NSLock a paused one holds")
      #expect(outcome.summary?.claimsEverySchedule(assuming: [.uncontrolledLocksRanWhole]) == true, "\(outcome.text)")
    }

    @Test(
      "a lock-order inversion between a drop-in and an NSLock is a deadlock that names the NSLock and its holder, not a hang, with the option or without",
      arguments: [true, false])
    func inversionWithADropIn(pausing: Bool) async throws {
      let ended = try await pausingExploration(pausing: pausing) {
        let plain = NSLock()
        let dropIn = EffectLock()
        let first = Task.effect(name: "first") { plain.withLock { dropIn.withLock {} } }
        let second = Task.effect(name: "second") { dropIn.withLock { plain.withLock {} } }
        _ = await (first.value, second.value)
      }
      let text = try #require(ended, "the exploration hung: a task waits for the NSLock a paused one holds").text
      #expect(text.contains("deadlock"), "\(text)")
      // Numbered where the run notes locks, as a run that pauses at them does.
      #expect(text.contains(pausing ? "an NSLock or pthread_mutex_t #" : "an NSLock or pthread_mutex_t"), "\(text)")
      #expect(text.contains("held by task #1 first"), "\(text)")
    }

    @Test("an NSLock.try() of a lock a task paused waiting for a drop-in holds fails at once, as on real threads: no deadlock")
    func tryDoesNotWaitForAPausedHolder() async throws {
      let tries = Mutex<Set<Bool>>([])
      let ended = try await pausingExploration {
        let plain = NSLock()
        let dropIn = EffectLock()
        let first = Task.effect(name: "first") { plain.withLock { dropIn.withLock {} } }
        let second = Task.effect(name: "second") {
          dropIn.withLock {
            let took = plain.try()
            if took { plain.unlock() }
            return took
          }
        }
        let (_, took) = await (first.value, second.value)
        tries.withLock { _ = $0.insert(took) }
      }
      let outcome = try #require(ended, "the exploration hung")
      #expect(outcome.summary?.exploredEverySchedule == true, "\(outcome.text)")
      // It failed where the first task held the lock, paused waiting for the drop-in.
      #expect(tries.withLock { $0 } == [true, false])
    }

    @Test("a task that holds a read–write lock and finds a mutex a paused task holds waits for it, paused: no hang")
    func holderOfALockWaitsForAPausedHolder() async throws {
      let ended = try await pausingExploration {
        let outer = PlatformReadWriteLock()
        let inner = NSLock()
        let dropIn = EffectLock()
        // Pauses holding `inner`, at the drop-in's acquire.
        let holder = Task.effect(name: "holder") { inner.withLock { dropIn.withLock {} } }
        // Holds `outer` when it finds `inner` held by the paused holder.
        let nester = Task.effect(name: "nester") { outer.withWriterLock { inner.withLock {} } }
        _ = await (holder.value, nester.value)
      }
      let outcome = try #require(ended, "the exploration hung: a task holding a lock blocked on one a paused task holds")
      #expect(outcome.summary?.exploredEverySchedule == true, "\(outcome.text)")
    }

    @Test(
      "a task holding a pthread_rwlock_t, for writing or reading, pauses at the acquires inside it: a task that does not take it, or takes it for reading beside a reader, sees the value between the two critical sections; one that a writer blocks never does",
      arguments: [ExplorationStrategy.exhaustive, .reduced], ReadWriteHolds.all)
    func holderOfAReadWriteLockPauses(strategy: ExplorationStrategy, holds: ReadWriteHolds) async throws {
      let seen = Mutex<Set<Int>>([])
      let ended = try await pausingExploration(strategy) {
        let registry = PlatformReadWriteLock()
        let counter = NSLockCounter()
        let writer = Task.effect(name: "writer") {
          let sections = {
            counter.write(1)
            counter.write(2)
          }
          if holds.writing { registry.withWriterLock(sections) } else { registry.withReaderLock(sections) }
        }
        let observer = Task.effect(name: "observer") {
          holds.observerReads ? registry.withReaderLock { counter.read() } : counter.read()
        }
        let (_, value) = await (writer.value, observer.value)
        seen.withLock { _ = $0.insert(value) }
      }
      let outcome = try #require(ended, "the exploration hung")
      let summary = try #require(outcome.summary, "\(outcome.text)")
      if strategy == .exhaustive { #expect(summary.exploredEverySchedule, "\(summary)") }
      #expect(!summary.tookUncontrolledLocks, "\(summary)")
      // Before a task holding a read–write lock paused, only 0 and 2 were ever seen.
      let between: Set<Int> = holds.writing && holds.observerReads ? [0, 2] : [0, 1, 2]
      #expect(seen.withLock { $0 } == between, "\(summary)")
    }

    @Test(
      "two locks taken in opposite orders (two NSLocks, or a pthread_rwlock_t and an NSLock), each task pausing at a drop-in inside its outer critical section: a deadlock the report names, not a hang, with the option or without",
      arguments: [true, false], [false, true])
    func inversionOfTwoLocksAcrossDropIns(pausing: Bool, readWrite: Bool) async throws {
      let ended = try await pausingExploration(pausing: pausing) {
        let accounts = OuterLock(readWrite: readWrite)
        let audit = NSLock()
        let first = Task.effect(name: "transfer") {
          accounts.take(writing: true) {
            EffectLock().withLock {}
            audit.withLock {}
          }
        }
        let second = Task.effect(name: "report") {
          audit.withLock {
            EffectLock().withLock {}
            accounts.take(writing: false) {}
          }
        }
        _ = await (first.value, second.value)
      }
      let text = try #require(ended, "the exploration hung: the run's first thread waits for a lock in a cycle").text
      #expect(text.contains("deadlock"), "\(text)")
      #expect(text.contains("held by task #1 transfer") && text.contains("held by task #2 report"), "\(text)")
    }

    @Test(
      "a task pauses at a drop-in inside a pthread_rwlock_t's critical section, and another task takes the lock the way it blocks: it waits, paused, with the option or without",
      arguments: [true, false], [true, false])
    func readWriteLockHeldAcrossADropIn(pausing: Bool, pausedWrites: Bool) async throws {
      let orders = Mutex<Set<[String]>>([])
      let ended = try await pausingExploration(pausing: pausing) {
        let registry = PlatformReadWriteLock()
        let log = OrderLog()
        // The first pauses at the drop-in holding the lock for writing (or reading); the second
        // takes it for reading (or writing), which that hold blocks.
        let first = Task.effect(name: "first") {
          let section = {
            EffectLock().withLock {}
            log.entries.withLock { $0.append("first") }
          }
          if pausedWrites { registry.withWriterLock(section) } else { registry.withReaderLock(section) }
        }
        let second = Task.effect(name: "second") {
          let section = { log.entries.withLock { $0.append("second") } }
          if pausedWrites { registry.withReaderLock(section) } else { registry.withWriterLock(section) }
        }
        _ = await (first.value, second.value)
        orders.withLock { _ = $0.insert(log.entries.withLock { $0 }) }
      }
      let outcome = try #require(ended, "the exploration hung: a task blocked on a read–write lock a paused task holds")
      #expect(outcome.summary?.claimsEverySchedule(assuming: [.uncontrolledLocksRanWhole, .synchronizationRanWhole]) == true, "\(outcome.text)")
      #expect(orders.withLock { $0 } == [["first", "second"], ["second", "first"]], "\(outcome.text)")
    }

  #endif

  @Test("pausing between two critical sections of one step finds the lost update, with no assumption left",
    arguments: [ExplorationStrategy.exhaustive, .reduced, .default])
  func pausesBetweenCriticalSections(strategy: ExplorationStrategy) async throws {
    var configuration = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil))
    configuration.scheduler.pausesBetweenCriticalSections = true
    let values = Mutex<Set<Int>>([])
    let summary = try await explore(strategy, configuration: configuration) {
      let counter = NSLockCounter()
      let first = Task { counter.incrementInTwoSections() }
      let second = Task { counter.incrementInTwoSections() }
      _ = await (first.value, second.value)
      let value = counter.read()
      values.withLock { _ = $0.insert(value) }
    }
    #if os(Linux) && _pointerBitWidth(_64)
      #expect(values.withLock { $0 } == [1, 2], "\(summary)")
      #expect(!summary.tookUncontrolledLocks, "\(summary)")
    #endif
  }

  @Test("without the option nothing changes: the same schedules as before, and outside any run the locks are plain locks")
  func offByDefault() async throws {
    #expect(!SchedulerConfiguration().pausesAtUncontrolledLocks)
    let counter = NSLockCounter()
    counter.incrementInTwoSections()
    #expect(counter.read() == 1)
    let plain = try await finalValues(of: NSLockCounter.self, .exhaustive, pausing: false)
    #expect(plain.summary.schedules == 3, "\(plain.summary)")
  }
}
