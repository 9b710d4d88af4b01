import EffectScheduler
import Effects
import Foundation
import Synchronization
import Testing

/// A view model as an app writes one: isolated to the main actor, with a method that suspends
/// between queueing a song and marking it ready, as it would while fetching the artwork.
@MainActor
private final class Playlist {
  private(set) var entries: [String] = []

  func add(_ song: String) async {
    entries.append("\(song) queued")
    await Task.yield()
    entries.append("\(song) ready")
  }
}

/// Reads the playlist from synchronous code that asserts, rather than proves, main-actor isolation.
private func entryCountAssumingMainActor(_ playlist: Playlist) -> Int {
  MainActor.assumeIsolated { playlist.entries.count }
}

/// A number for the calling thread, to tell threads apart.
private func currentThreadNumber() -> UInt {
  #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
  #else
    UInt(pthread_self())
  #endif
}

@Suite("Main actor scheduling")
struct MainActorSchedulingTests {
  /// Two tasks add a song each to one playlist; returns the playlist's entries.
  @Sendable static func twoSongs() async -> [String] {
    let playlist = Playlist()
    let intro = Task.effect(name: "Intro") { await playlist.add("Intro") }
    let outro = Task.effect(name: "Outro") { await playlist.add("Outro") }
    await intro.value
    await outro.value
    return await playlist.entries
  }

  @Test("each hop to a @MainActor model is a step of the task that made it, marked as on the main actor")
  func hopsAreSteps() async throws {
    let execution = try await DeterministicScheduler.run {
      let playlist = Playlist()
      await Task.effect(name: "adder") { await playlist.add("Intro") }.value
      return await playlist.entries
    }
    #expect(execution.value == ["Intro queued", "Intro ready"])
    let adder = try #require(execution.trace.tasks.first { $0.name == "adder" }).id
    let onMainActor = execution.trace.events.filter(\.onMainActor)
    // The root's last read of the playlist, and the adder's two segments: before and after the yield.
    #expect(onMainActor.map(\.task) == [adder, adder, TaskID(0)])
    #expect(onMainActor.allSatisfy { $0.kind == .resumed })
    // The adder starts off the main actor, in its nonisolated closure, then hops.
    #expect(execution.trace.events.contains { $0.task == adder && $0.kind == .started && !$0.onMainActor })
    #expect(execution.trace.table.contains("MainActor 1→2"))
    #expect(execution.trace.stepsWithWorkFromOutside.isEmpty)
  }

  @Test("different seeds interleave two tasks that both hop to the main actor in different orders")
  func seedsInterleave() async throws {
    var orders: Set<[String]> = []
    for seed: UInt64 in 0..<20 {
      let execution = try await DeterministicScheduler.run(strategy: .random(seed: seed)) { await Self.twoSongs() }
      #expect(execution.value.count == 4)
      // Whatever the interleaving, each song is queued before it is ready.
      for song in ["Intro", "Outro"] {
        let queued = try #require(execution.value.firstIndex(of: "\(song) queued"))
        let ready = try #require(execution.value.firstIndex(of: "\(song) ready"))
        #expect(queued < ready)
      }
      #expect(execution.trace.stepsWithWorkFromOutside.isEmpty)
      orders.insert(execution.value)
    }
    #expect(orders.count >= 2)
    #expect(orders.contains { $0.first == "Intro queued" })
    #expect(orders.contains { $0.first == "Outro queued" })
  }

  @Test("the main actor runs its jobs in the order they arrive: tasks created on it start in creation order under every seed")
  func mainActorIsFirstInFirstOut() async throws {
    var interleavings: Set<[String]> = []
    for seed: UInt64 in 0..<60 {
      let execution = try await DeterministicScheduler.run(strategy: .random(seed: seed)) { @MainActor () -> [String] in
        var log: [String] = []
        let first = Task { log.append("first starts"); await Task.yield(); log.append("first ends") }
        let second = Task { log.append("second starts"); await Task.yield(); log.append("second ends") }
        let third = Task.detached { await Task.yield() }
        await first.value
        await second.value
        await third.value
        return log
      }
      #expect(Array(execution.value.prefix(2)) == ["first starts", "second starts"], "seed \(seed): \(execution.value)")
      interleavings.insert(execution.value)
    }
    // What comes back from off the main actor still arrives in either order.
    #expect(interleavings.count > 1)
  }

  @Test("replaying a recorded schedule gives an equal trace, main-actor steps included")
  func replayIsExact() async throws {
    for seed: UInt64 in 0..<5 {
      let recorded = try await DeterministicScheduler.run(strategy: .random(seed: seed)) { await Self.twoSongs() }
      let replayed = try await DeterministicScheduler.run(strategy: .replay(recorded.schedule)) { await Self.twoSongs() }
      #expect(replayed.trace == recorded.trace)
      #expect(replayed.value == recorded.value)
      #expect(recorded.trace.events.filter(\.onMainActor).count >= 4)
    }
  }

  @Test("main-actor code under the scheduler runs on the driver thread, where Thread.isMainThread is false and MainActor.assumeIsolated works")
  func insideMainActorCode() async throws {
    let execution = try await DeterministicScheduler.run {
      let rootThread = currentThreadNumber()
      let playlist = Playlist()
      await playlist.add("Intro")
      let (isMainThread, thread, count) = await MainActor.run {
        (Thread.isMainThread, currentThreadNumber(), entryCountAssumingMainActor(playlist))
      }
      return (isMainThread, thread == rootThread, count)
    }
    #expect(execution.value == (false, true, 2))
    #expect(execution.trace.events.contains { $0.task == TaskID(0) && $0.onMainActor })
  }

  @Test("a program closure isolated to the main actor runs under the scheduler, and so do its Task { @MainActor in } tasks")
  func mainActorProgram() async throws {
    let execution = try await DeterministicScheduler.run { @MainActor in
      let playlist = Playlist()
      await playlist.add("Intro")
      await Task(name: "outro") { @MainActor in await playlist.add("Outro") }.value
      return (playlist.entries, entryCountAssumingMainActor(playlist))
    }
    #expect(execution.value.0 == ["Intro queued", "Intro ready", "Outro queued", "Outro ready"])
    #expect(execution.value.1 == 4)
    let tasks = execution.trace.tasks
    #expect(tasks.count == 2)
    #expect(tasks.last?.kind == .unstructured)
    #expect(tasks.last?.parent == TaskID(0))
    // Both tasks run on the main actor, and the spawned one starts there.
    #expect(execution.trace.events.contains { $0.task == TaskID(0) && $0.onMainActor })
    #expect(execution.trace.events.contains { $0.task == TaskID(1) && $0.kind == .started && $0.onMainActor })
    #expect(execution.trace.stepsWithWorkFromOutside.isEmpty)
  }

  @MainActor
  @Test("main-actor code outside any scheduler is untouched while 20 runs, each with its own @MainActor model, go on")
  func outsideCodeUntouched() async throws {
    // Each seed's run alone, for reference.
    var expected: [UInt64: Trace] = [:]
    for seed: UInt64 in 0..<20 {
      expected[seed] = try await DeterministicScheduler.run(strategy: .random(seed: seed)) { await Self.twoSongs() }.trace
    }
    let progress = RunProgress()
    async let runs = Self.twentyRunsAtOnce(startingAfter: progress)
    // Meanwhile, on the real main actor, from before the first run starts until the last one ends:
    // a playlist of its own, and the threads this code ran on, which must never be a driver thread.
    let playlist = Playlist()
    var outsideThreads: Set<UInt> = []
    var songs = 0
    progress.outsideCodeStarted.store(true, ordering: .releasing)
    while progress.finishedRuns.load(ordering: .acquiring) < 20, songs < 5_000 {
      songs += 1
      await playlist.add("Song \(songs)")
      #expect(DeterministicScheduler.current == nil)
      outsideThreads.insert(currentThreadNumber())
      try await Task.sleep(for: .milliseconds(1))
    }
    let results = try await runs
    #expect(songs < 5_000, "the runs did not finish in time")
    #expect(playlist.entries == (1...songs).flatMap { ["Song \($0) queued", "Song \($0) ready"] })
    #expect(results.count == 20)
    for (seed, driverThread, execution) in results {
      #expect(execution.trace == expected[seed])
      #expect(Set(execution.value) == ["Intro queued", "Intro ready", "Outro queued", "Outro ready"])
      #expect(!outsideThreads.contains(driverThread))
    }
  }

  /// Runs `twoSongs` under seeds 0 to 19 at once, once the code outside has started; returns each
  /// seed, the run's driver thread and its execution.
  private nonisolated static func twentyRunsAtOnce(startingAfter progress: RunProgress) async throws -> [(UInt64, UInt, Execution<[String]>)] {
    for _ in 0..<5_000 where !progress.outsideCodeStarted.load(ordering: .acquiring) {
      try await Task.sleep(for: .milliseconds(1))
    }
    return try await withThrowingTaskGroup(of: (UInt64, UInt, Execution<[String]>).self) { group in
      for seed: UInt64 in 0..<20 {
        group.addTask {
          defer { progress.finishedRuns.add(1, ordering: .releasing) }
          let execution = try await DeterministicScheduler.run(strategy: .random(seed: seed)) {
            (currentThreadNumber(), await Self.twoSongs())
          }
          return (seed, execution.value.0, Execution(value: execution.value.1, schedule: execution.schedule, trace: execution.trace))
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
  }
}

/// How far the concurrent runs of ``MainActorSchedulingTests/outsideCodeUntouched()`` have got.
private final class RunProgress: Sendable {
  let outsideCodeStarted = Atomic<Bool>(false)
  let finishedRuns = Atomic<Int>(0)
}
