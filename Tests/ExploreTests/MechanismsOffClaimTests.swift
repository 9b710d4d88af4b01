import EffectScheduler
import Explore
import Testing

/// Two counters on actors of their own; a plain task hops from one to the other.
private actor Counter {
  private(set) var value = 0
  func increment() { value += 1 }
}

@Suite("A claim names the runtime mechanisms it depended on that were off")
struct MechanismsOffClaimTests {
  /// Plain tasks that hop between two idle actors: without executor adoption each can make both
  /// hops within one step.
  static let hops: @Sendable () async throws -> Void = {
    let first = Counter()
    let second = Counter()
    let a = Task {
      await first.increment()
      await second.increment()
    }
    let b = Task {
      await second.increment()
      await first.increment()
    }
    _ = await (a.value, b.value)
  }

  @Test("with executor adoption left off, an exhaustive search of plain tasks claims every schedule only given the assumption, and says what is off")
  func adoptionOffQualifiesTheClaim() async throws {
    var configuration = ExploreConfiguration(progressInterval: nil)
    configuration.scheduler.mechanismsLeftOff = [.executorAdoption]
    // The claim rests on an assumption, which Swift Testing shows as a warning.
    let summary = try await explore(.exhaustive, configuration: configuration, Self.hops)
    #expect(summary.claim.assumptions.contains(.plainTasksHoppedWithinSteps), "\(summary)")
    #expect(summary.claim.coversEverySchedule)
    #expect(!summary.exploredEverySchedule)
    #expect(summary.mechanismsOff.contains(.executorAdoption))
    #expect(summary.description.contains("off in this process: executor adoption"), "\(summary)")
    #expect(summary.description.contains("plain tasks hopped between idle actors within one step"), "\(summary)")
  }

  @Test("with every mechanism verified, the same search claims every schedule with no assumption")
  func verifiedMechanismsLeaveTheClaimUnqualified() async throws {
    try #require(RuntimeCapabilities.current.off.isEmpty, "\(RuntimeCapabilities.current)")
    let summary = try await explore(.exhaustive, configuration: ExploreConfiguration(progressInterval: nil), Self.hops)
    #expect(summary.exploredEverySchedule, "\(summary)")
    #expect(summary.mechanismsOff.isEmpty)
    #expect(!summary.description.contains("off in this process"))
  }

  @Test("where a process cannot see locks, every claim assumes their critical sections ran whole; here it sees them")
  func locksUnseenQualifiesEveryClaim() {
    let blind = RuntimeCapabilities([.importedFunctionSlots: .unavailable("not on this platform")])
    #expect(!blind.seesLocks)
    #expect(ExplorationAssumption.madeEverywhere(with: blind) == [.locksUnseen])
    #if os(Linux) && _pointerBitWidth(_64)
      #expect(RuntimeCapabilities.current.seesLocks)
      #expect(ExplorationAssumption.madeEverywhere(with: .current).isEmpty)
    #endif
  }
}
