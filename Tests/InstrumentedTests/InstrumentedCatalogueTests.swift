import Explore
import ExploreTesting
import InstrumentedBugCatalogue
import Testing

/// The classic catalogue built instrumented: each bug is still found, and each fixed twin but one
/// still passes, now with every atomic operation a scheduling point and data races looked for.
@Suite("The catalogue built instrumented")
struct InstrumentedCatalogueTests {
  /// The fixed twin of the check before an actor hop checks the session on the actor, then serves
  /// the request, which checks it again: two critical sections of the session's `Mutex` in one
  /// actor job. A logout, which does not go through the actor, can close the session between the
  /// two on real threads, and the server serves a closed session. Steps that run whole hide it;
  /// instrumented, the second `withLock` is a scheduling point and the logout runs there.
  static let fixedButRacyInsideAStep = ClassicBug.checkBeforeActorHop.name

  @Test("each fixed twin passes every schedule", arguments: ClassicBug.all.map(\.name).filter { $0 != fixedButRacyInsideAStep })
  func fixedTwinPasses(name: String) async throws {
    let bug = try #require(ClassicBug.all.first { $0.name == name })
    var configuration = bug.configuration
    configuration.progressInterval = nil
    // Memory freed by one task and allocated again by another is followed (the runtime's
    // allocations), so two arrays that shared an address at different times are no race.
    let summary = try await explore(.exhaustive(maxSchedules: 20_000), configuration: configuration, bug.fixed)
    #expect(summary.instrumented)
  }

  @Test("the fixed check before an actor hop still serves a closed session, between two critical sections of one actor job")
  func twoCriticalSectionsOfOneActorJob() async throws {
    let bug = ClassicBug.checkBeforeActorHop
    let failure = try await requireFailure(ExplorationFailure.self) {
      // No time budget: the schedule count, not the machine's load, decides how far it looks.
      try await explore(.default, configuration: ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil)), bug.fixed)
    }
    #expect(failure.summary.contains("served a session that was already closed"), "\(failure.summary)")
    #expect(failure.description.contains("pause before atomic compare-exchange"), "\(failure)")
  }

  @Test("each bug is found", arguments: ClassicBug.all.map(\.name))
  func bugFound(name: String) async throws {
    let bug = try #require(ClassicBug.all.first { $0.name == name })
    var configuration = bug.configuration
    configuration.progressInterval = nil
    configuration.portfolioBudget.time = nil
    _ = try await requireFailure(ExplorationFailure.self) {
      try await explore(.default, configuration: configuration, bug.buggy(spawning: .effect))
    }
  }
}
