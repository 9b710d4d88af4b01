import BugCatalogue
@testable import EffectScheduler
@testable import Explore
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc

  /// A lock around a `pthread_mutex_t`, as swift-async-algorithms guards its state on Linux.
  private final class PlatformLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    init() { pthread_mutex_init(mutex, nil) }
    deinit {
      pthread_mutex_destroy(mutex)
      mutex.deallocate()
    }
    func withLock<Result>(_ body: () -> Result) -> Result {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return body()
    }
    /// Takes the lock by trying until a try succeeds.
    func withTriedLock<Result>(_ body: () -> Result) -> Result {
      while pthread_mutex_trylock(mutex) != 0 {}
      defer { pthread_mutex_unlock(mutex) }
      return body()
    }
  }
#endif

/// Three tasks, each passing its tag to `append`, which adds it to a string behind a lock; `reading`
/// gives the string at the end, one of six orders.
private func threeWayOrder(
  _ spawn: Spawn, _ report: AllOutcomes.Report, reading: @escaping @Sendable () -> String,
  appending append: @escaping @Sendable (String) -> Void
) async {
  let tasks = ["1", "2", "3"].map { tag in spawn(name: tag) { append(tag) } }
  for task in tasks { await task.value }
  report.finalState(reading())
}

/// A string behind an `NSLock` that `try()` or `lock(before:)` takes.
private final class TriedString: @unchecked Sendable {
  private let lock = NSLock()
  private var value = ""
  func append(_ tag: String, waiting: Bool) {
    if waiting { _ = lock.lock(before: .distantFuture) } else { while !lock.try() {} }
    defer { lock.unlock() }
    value += tag
  }
  var all: String { lock.withLock { value } }
}

/// A log that tasks append to outside any actor, behind an `NSLock`.
private final class LockedLog: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [String] = []
  func append(_ entry: String) { lock.withLock { entries.append(entry) } }
  var all: [String] { lock.withLock { entries } }
}

/// Programs whose tasks share state behind a lock, outside any actor.
enum LockProgram: String, CaseIterable, CustomStringConvertible {
  case nsLockOrder, platformLockOrder, channel
  /// Three tasks taking the lock with `NSLock.try()`, `NSLock.lock(before:)` and
  /// `pthread_mutex_trylock`, which the scheduler once did not see: a search assuming no unseen
  /// sharing claimed every schedule and saw four of the six orders.
  case nsLockTryOrder, nsLockBeforeDateOrder, platformTryLockOrder
  /// Tasks writing behind a `pthread_rwlock_t`, taken or tried, and one reading behind it.
  case readWriteLockOrder, readWriteLockTriedOrder, readWriteLockReader

  var description: String { rawValue }

  func run(spawning spawn: Spawn, reporting report: AllOutcomes.Report) async throws {
    switch self {
    case .nsLockOrder:
      let log = LockedLog()
      let first = spawn(name: "first") { log.append("1") }
      let second = spawn(name: "second") { log.append("2") }
      await first.value
      await second.value
      report.finalState(log.all.joined())
    case .platformLockOrder:
      #if canImport(Glibc)
        let lock = PlatformLock()
        nonisolated(unsafe) var order = ""
        let first = spawn(name: "first") { lock.withLock { order += "1" } }
        let second = spawn(name: "second") { lock.withLock { order += "2" } }
        await first.value
        await second.value
        report.finalState(lock.withLock { order })
      #endif
    case .nsLockTryOrder, .nsLockBeforeDateOrder:
      let string = TriedString()
      let waiting = self == .nsLockBeforeDateOrder
      await threeWayOrder(spawn, report, reading: { string.all }, appending: { string.append($0, waiting: waiting) })
    case .platformTryLockOrder:
      #if canImport(Glibc)
        let lock = PlatformLock()
        nonisolated(unsafe) var order = ""
        await threeWayOrder(spawn, report, reading: { lock.withLock { order } }, appending: { tag in lock.withTriedLock { order += tag } })
      #endif
    case .readWriteLockOrder, .readWriteLockTriedOrder:
      #if canImport(Glibc)
        let lock = PlatformReadWriteLock()
        nonisolated(unsafe) var order = ""
        let trying = self == .readWriteLockTriedOrder
        await threeWayOrder(spawn, report, reading: { lock.withReaderLock { order } }, appending: { tag in lock.withWriterLock(trying: trying) { order += tag } })
      #endif
    case .readWriteLockReader:
      #if canImport(Glibc)
        let lock = PlatformReadWriteLock()
        nonisolated(unsafe) var value = 0
        nonisolated(unsafe) var seen = -1
        let writer = spawn(name: "writer") { lock.withWriterLock { value = 1 } }
        let reader = spawn(name: "reader") { lock.withReaderLock { seen = value } }
        await writer.value
        await reader.value
        report.finalState("\(lock.withReaderLock { seen })")
      #endif
    case .channel:
      let channel = LockedChannel(NSLock())
      let got = LockedLog()
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
  }
}

@Suite("The reduced search and locks")
struct ReducedLockTests {
  @Test("tasks sharing state behind an NSLock, a pthread mutex or a lock-based channel: the reduced search sees every outcome the full one sees",
    arguments: LockProgram.allCases, Spawn.allCases)
  func sameOutcomes(program: LockProgram, spawn: Spawn) async {
    await AllOutcomes.expectReducedSearchSeesEverything(limit: 20_000, "\(program), \(spawn)") {
      try await program.run(spawning: spawn, reporting: $0)
    }
  }
}
