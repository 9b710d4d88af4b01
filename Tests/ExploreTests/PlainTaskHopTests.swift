import BugCatalogue
import EffectScheduler
import Explore
import ExploreTesting
import Testing

/// A flag on an actor of its own.
private actor Flag {
  private(set) var isSet = false
  func set() { isSet = true }
}

/// A log on another actor, which the waiter calls between reading the flag and waiting.
private actor Audit {
  private(set) var entries: [String] = []
  func add(_ entry: String) { entries.append(entry) }
}

/// Waits for a signal with a stored continuation; a signal that comes before the wait is lost.
private actor Waiter {
  private var waiting: CheckedContinuation<Void, Never>?
  private(set) var signals = 0

  func wait() async {
    await withCheckedContinuation { waiting = $0 }
  }

  func signal() {
    signals += 1
    waiting?.resume()
    waiting = nil
  }
}

@Suite("Plain tasks hop through the scheduler at every actor call")
struct PlainTaskHopTests {
  /// The waiter checks the flag, logs, then waits only if the flag was not set; the signaller
  /// sets the flag, then signals. If the signal lands between the check and the wait, it is lost
  /// and the waiter never wakes: only a choice between the waiter's hops exposes it.
  static func lostWakeUp(_ spawn: Spawn) -> @Sendable () async throws -> Void {
    {
      let flag = Flag()
      let audit = Audit()
      let waiter = Waiter()
      let waiting = spawn(name: "waiter") {
        let set = await flag.isSet
        await audit.add("checked")
        if !set { await waiter.wait() }
      }
      let signalling = spawn(name: "signaller") {
        await flag.set()
        await waiter.signal()
      }
      await waiting.value
      await signalling.value
    }
  }

  @Test("the lost wake-up between two actor hops is found, however the tasks are made", arguments: Spawn.allCases)
  func findsLostWakeUp(_ spawn: Spawn) async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: ExploreConfiguration(progressInterval: nil), Self.lostWakeUp(spawn))
    }
    #expect(failure.summary.contains("deadlock"), "\(failure.summary)")
  }

  @Test("plain tasks and Task.effect tasks get the same number of schedules", arguments: [2, 3])
  func sameScheduleCounts(_ hops: Int) async throws {
    let program: (Spawn) -> @Sendable () async throws -> Void = { spawn in
      {
        let audit = Audit()
        let flag = Flag()
        let first = spawn(name: "first") {
          for index in 0..<hops { await audit.add("first \(index)") }
        }
        let second = spawn(name: "second") {
          await flag.set()
          for index in 0..<hops { await audit.add("second \(index)") }
        }
        await first.value
        await second.value
      }
    }
    try await Self.expectSameSchedules(program)
  }

  /// Expects an exhaustive search of `program` to run as many schedules, all of them, whether it
  /// spawns with `Task.effect` or with plain `Task {}`.
  static func expectSameSchedules(
    _ program: (Spawn) -> @Sendable () async throws -> Void,
    configuration: ExploreConfiguration = ExploreConfiguration(progressInterval: nil),
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let effect = try await explore(.exhaustive, configuration: configuration, program(.effect))
    let plain = try await explore(.exhaustive, configuration: configuration, program(.plain))
    #expect(ClassicBug.searchedAllItCould(effect) && ClassicBug.searchedAllItCould(plain), sourceLocation: sourceLocation)
    #expect(plain.schedules == effect.schedules, "Task.effect: \(effect.schedules), Task {}: \(plain.schedules)", sourceLocation: sourceLocation)
  }

  @Test("main-actor tasks and tasks with async let children get the same schedules either way")
  func sameCountsOnTheMainActorAndForChildren() async throws {
    let program: (Spawn) -> @Sendable () async throws -> Void = { spawn in
      {
        let audit = Audit()
        let onMain = spawn(name: "on main") { @MainActor in
          await audit.add("main 1")
          await audit.add("main 2")
        }
        let parent = spawn(name: "parent") {
          async let first: Void = audit.add("child 1")
          async let second: Void = audit.add("child 2")
          _ = await (first, second)
        }
        await onMain.value
        await parent.value
      }
    }
    try await Self.expectSameSchedules(program)
  }
}
