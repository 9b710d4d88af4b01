#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import BugCatalogue
import Dispatch
import EffectScheduler
import Explore
import ExploreTesting
import Synchronization
import Testing

private typealias Original = @convention(thin) (UnownedJob) -> Void
private typealias Hook = @convention(thin) (UnownedJob, Original) -> Void
private typealias MainOriginal = @convention(thin) () -> UnownedSerialExecutor
private typealias MainHook = @convention(thin) (MainOriginal) -> UnownedSerialExecutor

/// How many jobs the foreign hook saw.
private let foreignJobs = Atomic<Int>(0)
/// Where the foreign hook runs them: a serial queue of its own, as `withMainSerialExecutor` runs
/// them on the main queue.
private let foreignQueue = DispatchQueue(label: "ForeignHookTests.serial")
/// The thread that drives this suite's exploration, the only one whose jobs the foreign hook
/// takes away, so that explorations of other suites running meanwhile are not disturbed.
private let driverOfThisSuite = Atomic<UInt>(0)
/// The hooks the foreign ones found in place, as bits, for jobs of other threads.
private let previousEnqueueHook = Atomic<UInt>(0)
private let previousMainHook = Atomic<UInt>(0)

/// Runs `body` with a global enqueue hook of another library's in place, as
/// swift-concurrency-extras' `withMainSerialExecutor` does: it takes the hook over without
/// chaining to the one before, and puts that one back at the end. This one runs every job it sees
/// on a serial queue, counting them.
private func withForeignEnqueueHook<Value>(_ body: () async throws -> Value) async rethrows -> Value {
  guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "swift_task_enqueueGlobal_hook") else {
    return try await body()
  }
  let slot = symbol.assumingMemoryBound(to: Hook?.self)
  let saved = slot.pointee
  // Jobs of other threads go on to the hook it found, so that runs of other suites already under
  // way, which a real foreign hook would disturb, are not.
  previousEnqueueHook.store(unsafeBitCast(slot.pointee, to: UInt.self), ordering: .releasing)
  slot.pointee = { job, original in
    foreignJobs.add(1, ordering: .relaxed)
    guard UInt(pthread_self()) == driverOfThisSuite.load(ordering: .acquiring) else {
      let bits = previousEnqueueHook.load(ordering: .acquiring)
      return bits == 0 ? original(job) : unsafeBitCast(bits, to: Hook.self)(job, original)
    }
    foreignQueue.async { job.runSynchronously(on: globalConcurrentExecutor.asUnownedTaskExecutor()) }
  }
  defer { slot.pointee = saved }
  return try await body()
}

/// Runs `body` with a main-executor hook of another library's in place, installed without
/// chaining: on this suite's driver thread it answers with the real main executor.
private func withForeignMainExecutorHook<Value>(_ body: () async throws -> Value) async rethrows -> Value {
  guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "swift_task_getMainExecutor_hook") else {
    return try await body()
  }
  let slot = symbol.assumingMemoryBound(to: MainHook?.self)
  let saved = slot.pointee
  previousMainHook.store(unsafeBitCast(slot.pointee, to: UInt.self), ordering: .releasing)
  slot.pointee = { original in
    foreignJobs.add(1, ordering: .relaxed)
    let bits = previousMainHook.load(ordering: .acquiring)
    guard UInt(pthread_self()) != driverOfThisSuite.load(ordering: .acquiring), bits != 0 else { return original() }
    return unsafeBitCast(bits, to: MainHook.self)(original)
  }
  defer { slot.pointee = saved }
  return try await body()
}

/// A model on the main actor.
@MainActor
private final class Counter {
  private(set) var count = 0
  func add() async {
    let seen = count
    await Task.yield()
    count = seen + 1
  }
}

/// A counter on an actor.
private actor Tally {
  private(set) var count = 0
  func add() { count += 1 }
}

@Suite("Another library's global enqueue hook", .serialized)
struct ForeignHookTests {
  /// Two plain tasks that each add twice to a tally.
  @Sendable static func twoAdders() async throws {
    driverOfThisSuite.store(UInt(pthread_self()), ordering: .releasing)
    let tally = Tally()
    let first = Task { await tally.add(); await tally.add() }
    let second = Task { await tally.add(); await tally.add() }
    await first.value
    await second.value
    try check(await tally.count == 4, "the tally lost an addition")
  }

  @Test("explore inside another library's hook sees the run's plain tasks as without it, and outside code still goes through that hook")
  func exploreInsideForeignHook() async throws {
    let configuration = ExploreConfiguration(progressInterval: nil)
    let alone = try await explore(.exhaustive, configuration: configuration, Self.twoAdders)
    driverOfThisSuite.store(0, ordering: .releasing)
    let before = foreignJobs.load(ordering: .relaxed)
    let inside = try await withForeignEnqueueHook {
      let summary = try await explore(.exhaustive, configuration: configuration, Self.twoAdders)
      // Code outside any scheduler still reaches the foreign hook, and, where the foreign hook
      // hands it back to the one it found (this library's, which the run put in front of it
      // again), the chain ends instead of going round for ever.
      await Task.detached { await Task.yield() }.value
      return summary
    }
    driverOfThisSuite.store(0, ordering: .releasing)
    #expect(inside.exploredEverySchedule)
    #expect(inside.schedules == alone.schedules)
    #expect(foreignJobs.load(ordering: .relaxed) > before)
  }

  /// Two main-actor tasks that each add to a model; returns nothing, checks nothing.
  @Sendable static func twoMainActorAdders() async throws {
    driverOfThisSuite.store(UInt(pthread_self()), ordering: .releasing)
    let counter = Counter()
    let first = Task { @MainActor in await counter.add() }
    let second = Task { @MainActor in await counter.add() }
    await first.value
    await second.value
  }

  @Test("explore inside another library's main-executor hook keeps main-actor code on its stand-in")
  func exploreInsideForeignMainExecutorHook() async throws {
    let configuration = ExploreConfiguration(progressInterval: nil)
    let alone = try await explore(.exhaustive, configuration: configuration, Self.twoMainActorAdders)
    let inside = try await withForeignMainExecutorHook {
      try await explore(.exhaustive, configuration: configuration, Self.twoMainActorAdders)
    }
    driverOfThisSuite.store(0, ordering: .releasing)
    #expect(inside.exploredEverySchedule)
    #expect(inside.schedules == alone.schedules)
  }
}
