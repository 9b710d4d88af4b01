import Accounts
import Explore
import ExploreTesting
import Synchronization
import Testing

// Built, like the Accounts library, with the one setting of <doc:InstrumentedBuilds>: every
// atomic operation of both, `Mutex.withLock` included, is a scheduling point, and every plain
// access is checked for data races.

/// Whether some run's task found itself not cancelled.
private final class Sightings: Sendable {
  let uncancelled = Atomic<Bool>(false)
}

@Suite("A package's library and tests, built instrumented with the one setting")
struct InstrumentedAccountsTests {
  /// The default search and budget but for its time limit, so that a loaded machine cannot cut a
  /// search short and turn a finding or a proof into a sample.
  static let untimed = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil))

  static func twoLogins(looksUpThenStores: Bool) -> @Sendable () async throws -> Void {
    {
      let sessions = Sessions(looksUpThenStores: looksUpThenStores)
      async let first = sessions.session(for: "ada")
      async let second = sessions.session(for: "ada")
      let (one, other) = await (first, second)
      #expect(one === other, "two sessions made for one user")
    }
  }

  static func twoOpeners(checksThenOpens: Bool) -> @Sendable () async throws -> Void {
    {
      let ledger = Ledger(checksThenOpens: checksThenOpens)
      let openers = [Task { ledger.open() }, Task { ledger.open() }]
      for opener in openers { await opener.value }
      #expect(ledger.openings.load(ordering: .relaxed) == 1)
    }
  }

  static func twoDeposits(guarded: Bool) -> @Sendable () async throws -> Void {
    {
      let balance = Balance(guarded: guarded)
      async let first: Void = balance.deposit(100)
      async let second: Void = balance.deposit(250)
      _ = await (first, second)
      #expect(balance.total == 350)
    }
  }

  @Test("a get-or-create split across two Mutex.withLock calls is found by the default search")
  func splitGetOrCreateFound() async throws {
    let failure = await #expect(throws: ExplorationFailure.self) {
      try await explore(.default, configuration: Self.untimed, Self.twoLogins(looksUpThenStores: true))
    }
    #expect(failure?.summary.contains("two sessions made for one user") == true, "\(String(describing: failure))")
  }

  @Test("a check-then-open on two atomic operations is found by the default search")
  func checkThenOpenFound() async throws {
    await #expect(throws: ExplorationFailure.self) {
      try await explore(.default, configuration: Self.untimed, Self.twoOpeners(checksThenOpens: true))
    }
  }

  @Test("two deposits with nothing between them are a data race, named by both tasks and lines")
  func unguardedDepositsRace() async throws {
    let failure = await #expect(throws: ExplorationFailure.self) {
      try await explore(.default, configuration: Self.untimed, Self.twoDeposits(guarded: false))
    }
    let summary = failure?.summary ?? ""
    #expect(summary.hasPrefix("data race: task #"), "\(summary)")
    #expect(summary.components(separatedBy: "Ledger.swift").count == 3, "\(summary)")
  }

  @Test("the fixed code passes with every schedule explored, and the summary says it was instrumented")
  func fixesPass() async throws {
    for program in [Self.twoLogins(looksUpThenStores: false), Self.twoOpeners(checksThenOpens: false), Self.twoDeposits(guarded: true)] {
      let summary = try await explore(.default, configuration: Self.untimed, program)
      #expect(summary.exploredEverySchedule && summary.instrumented, "\(summary)")
    }
  }

  @Test("a program of actors only is claimed by the reduced search, with no assumption")
  func actorsOnlyClaimed() async throws {
    let summary = try await explore(.reduced(), configuration: Self.untimed) {
      let histories = [History(), History(), History()]
      await withTaskGroup(of: Void.self) { group in
        for (index, history) in histories.enumerated() {
          group.addTask {
            for call in 0..<3 { await history.record("\(index).\(call)") }
          }
        }
      }
      for history in histories { #expect(await history.entries.count == 3) }
    }
    #expect(summary.exploredEverySchedule, "\(summary)")
    #expect(summary.reductionCheck?.followedAccesses == true, "\(summary)")
  }

  @Test("a task cancelled right after it is created is also explored running first")
  func cancelledRightAfterCreation() async throws {
    let sightings = Sightings()
    let summary = try await explore(.exhaustive, configuration: Self.untimed) {
      let child = Task {
        if !Task.isCancelled { sightings.uncancelled.store(true, ordering: .relaxed) }
      }
      child.cancel()
      await child.value
    }
    #expect(summary.exploredEverySchedule, "\(summary)")
    let sawItUncancelled = sightings.uncancelled.load(ordering: .relaxed)
    #expect(sawItUncancelled)
  }
}
