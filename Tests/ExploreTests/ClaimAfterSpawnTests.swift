import EffectScheduler
import Explore
import ExploreTesting
import Foundation
import Testing

/// A claim behind an `NSLock` that a task makes right after starting another that claims too:
/// on real threads the new task may take the lock first. The step's critical section is its
/// first, which pausing between critical sections would otherwise take as one that runs where the
/// step begins; but the step made a task ready before it, so it is a scheduling point there.
private final class Claim: @unchecked Sendable {
  private let lock = NSLock()
  private var owner: String?

  /// Claims for `name` unless claimed; returns the owner.
  func claim(for name: String) -> String {
    lock.withLock {
      if owner == nil { owner = name }
      return owner!
    }
  }
}

@Suite("A critical section after a step started a task")
struct ClaimAfterSpawnTests {
  static let program: @Sendable () async throws -> Void = {
    let claim = Claim()
    let helper = Task { claim.claim(for: "helper") }
    let owner = claim.claim(for: "starter")
    _ = await helper.value
    #expect(owner == "starter", "the task just started took the claim first")
  }

  @Test("pausing between critical sections, the new task is explored taking the lock first", .enabled(if: RuntimeCapabilities.current.seesLocks))
  func newTaskTakesTheLockFirst() async throws {
    var configuration = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil))
    configuration.scheduler.pausesBetweenCriticalSections = true
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: configuration, Self.program)
    }
    #expect(failure.summary.contains("the task just started took the claim first"), "\(failure.summary)")
  }

  @Test("the default search finds it, once the schedules that ran the sections whole have passed", .enabled(if: RuntimeCapabilities.current.seesLocks))
  func defaultFindsIt() async throws {
    let configuration = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil))
    _ = try await requireFailure(ExplorationFailure.self) {
      try await explore(.default, configuration: configuration, Self.program)
    }
  }
}
