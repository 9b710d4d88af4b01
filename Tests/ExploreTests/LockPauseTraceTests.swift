import Effects
import Explore
import Foundation
import ExploreTesting
import Testing

/// A tally behind a drop-in lock.
private final class LockedTally: @unchecked Sendable {
  let lock: EffectLock
  var value = 0

  init(_ lock: EffectLock) { self.lock = lock }

  func increment() { lock.withLock { value += 1 } }
}

@Suite("A trace step that paused at a lock")
struct LockPauseTraceTests {
  static let quiet = ExploreConfiguration(progressInterval: nil)

  @Test("names the drop-in lock it paused before, and where the program made it")
  func pauseBeforeAcquire() async throws {
    let madeAt = #line + 3
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: Self.quiet) {
        let tally = LockedTally(EffectLock())
        let a = Task.effect(name: "A") { tally.increment() }
        let b = Task.effect(name: "B") { tally.increment() }
        _ = await (a.value, b.value)
        #expect(tally.value == 3, "fails under every schedule, to see one")
      }
    }
    let table = try #require(failure.trace).table
    #expect(table.contains("start→pause before EffectLock #0 (made at ExploreTests/LockPauseTraceTests.swift:\(madeAt))"), "\(table)")
    // Every pause in it is at the lock, and says so.
    let afterPauses = table.components(separatedBy: "→pause").dropFirst()
    #expect(!afterPauses.isEmpty && afterPauses.allSatisfy { $0.hasPrefix(" before EffectLock #0 ") }, "\(table)")
  }

  @Test("names the lock it waits for while another task holds it")
  func pauseWaitingForAHeldLock() async throws {
    let firstMadeAt = #line + 3
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: Self.quiet) {
        let first = EffectLock()
        let second = EffectLock()
        let a = Task.effect(name: "A") { first.withLock { second.withLock {} } }
        let b = Task.effect(name: "B") { second.withLock { first.withLock {} } }
        _ = await (a.value, b.value)
      }
    }
    #expect(failure.summary.hasPrefix("deadlock"), "\(failure)")
    let table = try #require(failure.trace).table
    let waits = ["→pause waiting for EffectLock #", " (made at ExploreTests/LockPauseTraceTests.swift:"]
    #expect(waits.allSatisfy(table.contains), "\(table)")
    #expect(
      table.contains("(made at ExploreTests/LockPauseTraceTests.swift:\(firstMadeAt))")
        && table.contains("(made at ExploreTests/LockPauseTraceTests.swift:\(firstMadeAt + 1))"), "\(table)")
  }
}
