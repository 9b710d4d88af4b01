import BugCatalogue
import Explore
import ExploreTesting
import Testing

/// `.default`, what a bare `explore { … }` runs: a portfolio of strategies within one budget.
@Suite("The default portfolio")
struct DefaultPortfolioTests {
  /// The catalogue's programs with the default budget's 20,000 schedules but no time limit, so
  /// that which part finds each bug does not depend on how loaded the machine is: while dozens of
  /// explorations of plain `Task {}` programs run at once, as in this suite, such a program can
  /// slow to tens of schedules a second. Unloaded, on 2 cores, a bare `explore` (time budget
  /// included) found and reported each bug within 0.31 s, in release and in debug alike: the
  /// deadlocks take 0.2 to 0.31 s, nearly all of it waiting 100 ms a deadlocking run for the
  /// outside world; every other bug took at most 41 ms in release and 0.22 s in debug (the
  /// depth-3 bug with `Task.effect`, found at schedule 1,605 by the exhaustive part in release,
  /// at schedule 3,219 by the preemption bound 0 part in debug: the two builds give the program
  /// different schedules).
  static func withoutTimeLimit(_ bug: ClassicBug) -> ExploreConfiguration {
    var configuration = bug.configuration
    configuration.portfolioBudget.time = nil
    return configuration
  }

  @Test(
    ".default finds every bug, of the kind exhaustive search finds, names the part that found it, reports the fewest preemptions, and replays",
    arguments: ClassicBug.all, Spawn.allCases)
  func findsEveryBug(_ bug: ClassicBug, spawn: Spawn) async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(configuration: Self.withoutTimeLimit(bug), bug.buggy(spawning: spawn))
    }
    let reference = try await requireFailure(ExplorationFailure.self) {
      try await explore(bug.exhaustive, configuration: bug.configuration, bug.buggy(spawning: spawn))
    }
    let kind = FailureKind(failure)
    #expect(kind == .invariantViolated || kind == .deadlock, "\(failure)")
    #expect(kind == FailureKind(reference), "\(failure)")

    // The report names the part that found the failing schedule, which the budget bounds.
    let part = try #require(failure.portfolioPart, "no part named:\n\(failure)")
    #expect(failure.strategy.hasPrefix("default portfolio, found by its \(part) part"))
    #expect(failure.description.contains("strategy: default portfolio, found by its \(part) part"))
    #expect(try #require(failure.scheduleNumber) <= PortfolioBudget().schedules)

    // It went through the same search for fewer preemptions as exhaustive search's report.
    let preemptions = try #require(failure.preemptions)
    #expect(preemptions.reported == reference.preemptions?.reported)
    #expect(preemptions.reported <= preemptions.found)
    if preemptions.reported < preemptions.found {
      #expect(failure.strategy.hasSuffix(", then a search for fewer preemptions"))
    }

    let schedule = try #require(failure.schedule)
    let replayed = try await requireFailure(ExplorationFailure.self) {
      try await explore(.replay(schedule), configuration: bug.configuration, bug.buggy(spawning: spawn))
    }
    #expect(replayed.summary == failure.summary)
    #expect(replayed.trace == failure.trace)
    print("default portfolio found \"\(bug)\" (\(spawn)) with its \(part) part at schedule \(failure.scheduleNumber ?? 0)")
  }

  /// With the default budget, time included. A twin with few schedules is settled by the reduced
  /// part, or where that cannot justify its claim by the exhaustive part, unless the machine is so
  /// loaded that the time budget runs out first. The philosophers' twins have far more schedules
  /// than those parts' half of the budget, so the budget always ends their search, and the summary
  /// says so rather than claim every schedule passed.
  @Test(".default passes each fixed twin, saying whether it explored every schedule or the budget ran out",
    arguments: ClassicBug.all, Spawn.allCases)
  func fixedTwinPasses(_ bug: ClassicBug, spawn: Spawn) async throws {
    let summary = try await explore(configuration: bug.configuration, bug.fixed(spawning: spawn))
    let budget = PortfolioBudget()
    #expect(summary.claimsEverySchedule(assuming: [.synchronizationRanWhole]) == (summary.budgetRanOut == nil), "\(summary)")
    #expect(summary.portfolioParts.map(\.schedules).reduce(0, +) == summary.schedules)
    #expect(summary.schedules <= budget.schedules)

    let parts = summary.portfolioParts
    #expect(parts.first?.part == .reduced)
    if summary.claim.coversEverySchedule {
      // Settled by the reduced part, or by the exhaustive part where the reduced one could not
      // justify its claim.
      #expect(parts.map(\.ending) == [.triedEverySchedule] || parts.map(\.ending) == [.unjustified, .triedEverySchedule], "\(summary)")
      #expect(parts.count == 1 || parts.last?.part == .exhaustive)
    } else {
      let limit = try #require(summary.budgetRanOut)
      let time = try #require(budget.time)
      #expect(limit == .schedules(budget.schedules) || limit == .time(time))
      if limit == .schedules(budget.schedules) { #expect(summary.schedules == budget.schedules) }
      #expect(summary.description.contains("; \(limit) ran out before every schedule was tried; "))
      #expect(summary.description.contains("; parts: reduced DFS: "))
      #expect(parts.last?.ending == .budgetRanOut)
      #expect(!parts.contains { $0.ending == .triedEverySchedule && ($0.part == .exhaustive || $0.part == .reduced) })
    }

    // A twin of at most 2,000 schedules is settled, unless the time budget stopped the search
    // first. A twin too large for the catalogue's exhaustive tests is too large for that part.
    let small = try await explore(.exhaustive(maxSchedules: 2_000), configuration: bug.configuration, bug.fixed(spawning: spawn))
    // Twins whose state sits behind a `Mutex` claim every schedule given that its critical
    // sections ran whole.
    if small.claim.coversEverySchedule {
      // On a loaded machine the time can run out just as the last schedule ran, before the
      // search learned there was none left.
      #expect(summary.claim.coversEverySchedule || summary.budgetRanOut == .time(.seconds(2)), "\(summary)")
    } else {
      #expect(summary.budgetRanOut != nil)
    }
    if bug.exhaustiveLimit != nil { #expect(summary.budgetRanOut != nil) }
  }

  /// Four independent tasks of four segments have 16!/(4!^4) = 63,063,000 schedules. The schedule
  /// budget is far more than half a second can run, but bounds the test should the time budget
  /// be ignored.
  @Test("a budget spent before the first schedule still runs one: a program that deadlocks never passes")
  func budgetRunsOneSchedule() async throws {
    var configuration = ExploreConfiguration(progressInterval: nil)
    configuration.portfolioBudget = PortfolioBudget(time: .nanoseconds(1), schedules: 100)
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(configuration: configuration) { await NeverOpens().wait() }
    }
    #expect(failure.summary.hasPrefix("deadlock"), "\(failure)")
  }

  @Test("the time budget ends a search of millions of schedules, and the summary says so")
  func timeBudgetEndsTheSearch() async throws {
    let budget = PortfolioBudget(time: .milliseconds(500), schedules: 500_000)
    let configuration = ExploreConfiguration(progressInterval: nil, portfolioBudget: budget)
    let summary = try await explore(configuration: configuration, ExhaustiveSearchTests.independent(tasks: 4, segments: 4))
    #expect(summary.budgetRanOut == .time(.milliseconds(500)))
    #expect(summary.schedules < 500_000)
    #expect(!summary.exploredEverySchedule)
    #expect(summary.description.contains("the time budget (0.5 s) ran out before every schedule was tried"))
    // The parts ran in order, each systematic part stopping at its share of the time or when it
    // had tried every schedule it covers, and the sampling ones when the budget ran out. On a loaded machine a run can take so long that a
    // part overruns its share and the budget ends before the last parts had a turn.
    // The exhaustive part runs only where the reduced part stopped because it could not justify
    // a claim.
    let parts = summary.portfolioParts
    let systematic: [PortfolioPart] =
      parts.first?.ending == .unjustified
      ? [.reduced, .exhaustive, .preemptionBound(0), .preemptionBound(1), .preemptionBound(2)]
      : [.reduced, .preemptionBound(0), .preemptionBound(1), .preemptionBound(2)]
    let order = systematic + [.pct(depth: 3), .random]
    #expect(!parts.isEmpty && parts.map(\.part) == Array(order.prefix(parts.count)), "\(summary)")
    #expect(parts.prefix(systematic.count).dropLast(parts.count <= systematic.count ? 1 : 0).allSatisfy { $0.ending != .budgetRanOut })
    #expect(parts.dropFirst(systematic.count).allSatisfy { $0.ending == .budgetRanOut })
    #expect(summary.portfolioParts.map(\.schedules).reduce(0, +) == summary.schedules)
    // It stops only once the budget is spent, and soon after: a run of this program takes well
    // under a millisecond (about 0.5 s in all, measured, unloaded).
    #expect(summary.duration >= .milliseconds(500))
    #expect(summary.duration < .seconds(10))
  }

  /// Without a time budget the shares depend on the schedule count alone, so the outcome is the
  /// same on every machine: 1,680 schedules for three tasks of three segments, more than the half
  /// of the 3,000-schedule budget that the reduced part (one run, which cannot claim anything)
  /// and the exhaustive part share.
  @Test("the schedule budget ends the search, shared among the parts")
  func scheduleBudgetEndsTheSearch() async throws {
    let configuration = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil, schedules: 3_000))
    let summary = try await explore(configuration: configuration, ExhaustiveSearchTests.independent(tasks: 3, segments: 3))
    #expect(summary.schedules == 3_000)
    #expect(summary.budgetRanOut == .schedules(3_000))
    #expect(summary.description.contains("the schedule budget (3000 schedules) ran out before every schedule was tried"))
    let parts = summary.portfolioParts
    #expect(parts.prefix(2) == [
      PortfolioPartSummary(part: .reduced, schedules: 1, ending: .unjustified),
      PortfolioPartSummary(part: .exhaustive, schedules: 1_499, ending: .usedItsShare),
    ])
    #expect(parts.dropFirst(2).prefix(3).allSatisfy { $0.schedules <= 300 })
    try #require(parts.map(\.part) == [.reduced, .exhaustive, .preemptionBound(0), .preemptionBound(1), .preemptionBound(2), .pct(depth: 3), .random])
    #expect(parts.map(\.schedules).reduce(0, +) == 3_000)
    // PCT and random take turns, PCT first.
    #expect(parts[5].schedules - parts[6].schedules == 0 || parts[5].schedules - parts[6].schedules == 1)
  }

  /// Two tasks of seven segments have 14!/(7!·7!) = 3,432 schedules: more than a tenth of the
  /// default schedule budget, which the exhaustive part once got, and well within its half. Their
  /// steps outside actors are taken as independent unseen, so the reduced part claims nothing,
  /// and the exhaustive part settles them.
  @Test(".default settles a space of a few thousand schedules, saying every schedule was explored")
  func settlesThousands() async throws {
    // Under the default fairness rule: six yields in a row are within its bound, so no
    // interleaving is cut.
    let configuration = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil))
    let summary = try await explore(configuration: configuration, ExhaustiveSearchTests.independent(tasks: 2, segments: 7))
    #expect(summary.exploredEverySchedule, "\(summary)")
    #expect(summary.portfolioParts == [
      PortfolioPartSummary(part: .reduced, schedules: 1, ending: .unjustified),
      PortfolioPartSummary(part: .exhaustive, schedules: 3_432, ending: .triedEverySchedule),
    ])
    #expect(!summary.description.contains("could not be justified"), "\(summary)")
  }

  /// Assuming the tasks share nothing unseen, the reduced part settles the same program in one
  /// schedule of its own and the runs that try its pairs the other way round.
  @Test("assuming no unseen sharing, the reduced part settles it alone")
  func reducedPartSettles() async throws {
    let configuration = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil), assumesNoUnseenSharing: true)
    let summary = try await explore(configuration: configuration, ExhaustiveSearchTests.independent(tasks: 2, segments: 7))
    #expect(summary.claimsEverySchedule(assuming: [.noUnseenSharing]), "\(summary)")
    #expect(summary.portfolioParts.map(\.part) == [.reduced])
    #expect(summary.schedules < 100, "\(summary)")
  }

  /// The catalogue's three dining philosophers share only actors (the forks) and the
  /// continuations they wake. Told so, the reduced part proves the fixed table deadlock-free in
  /// well under the default 20,000 schedules (6,939 in a debug build, whose actor hops are more,
  /// and 3,760 in 0.4 s in a release build, when measured), and
  /// finds the naive table's deadlock. The schedule budget alone bounds the search, so the test
  /// does not depend on the machine's speed; `Benchmarks philosophers` times it.
  @Test(".default, assuming no unseen sharing, proves the fixed three philosophers and finds the naive table's deadlock",
    arguments: Spawn.allCases)
  func philosophers(spawn: Spawn) async throws {
    var configuration = ClassicBug.diningPhilosophers3.configuration
    configuration.progressInterval = nil
    configuration.portfolioBudget = PortfolioBudget(time: nil)
    configuration.assumesNoUnseenSharing = true
    let fixed = ClassicBug.diningPhilosophers3.fixed(spawning: spawn)
    let summary = try await explore(configuration: configuration) { try await fixed() }
    #expect(summary.claimsEverySchedule(assuming: [.noUnseenSharing]), "\(summary)")
    #expect(summary.portfolioParts.map(\.part) == [.reduced], "\(summary)")
    #expect(summary.schedules < 10_000, "\(summary)")
    let naive = ClassicBug.diningPhilosophers3.buggy(spawning: spawn)
    let failure = await #expect(throws: ExplorationFailure.self) {
      try await explore(configuration: configuration) { try await naive() }
    }
    #expect(failure?.summary.contains("deadlock") == true, "\(String(describing: failure))")
  }

  /// With no time budget the search is the same everywhere. The stale response shows up in the
  /// exhaustive part after more than its share of 40 schedules: with 40 (20 for the exhaustive
  /// part), the part bounded to no preemption finds it first, in a schedule with none, since an
  /// actor's job that hands a task over while another waits for the actor goes on as a step of
  /// its own; with 300 (150 for the exhaustive part), the exhaustive part does, with five
  /// preemptions that the minimization removes.
  @Test("the report names the part that found the failure, minimized", arguments: [
    (40, PortfolioPart.preemptionBound(0)), (300, PortfolioPart.exhaustive),
  ])
  func namesThePart(schedules: Int, part: PortfolioPart) async throws {
    let bug = ClassicBug.staleSearchResponse
    var configuration = bug.configuration
    configuration.portfolioBudget = PortfolioBudget(time: nil, schedules: schedules)
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(configuration: configuration, bug.buggy)
    }
    #expect(failure.portfolioPart == part)
    #expect(FailureKind(failure) == .invariantViolated)
    #expect(failure.preemptions?.reported == 0)
    // A failure found with no preemption needs no search for fewer.
    let minimized = part == .exhaustive ? ", then a search for fewer preemptions" : ""
    #expect(failure.strategy == "default portfolio, found by its \(part) part\(minimized)")
    #expect(failure.seed == nil)
    #expect(failure.preemptions?.found == (part == .exhaustive ? 5 : 0))
    let schedule = try #require(failure.schedule)
    let replayed = try await requireFailure(ExplorationFailure.self) {
      try await explore(.replay(schedule), configuration: configuration, bug.buggy)
    }
    #expect(replayed.summary == failure.summary)
  }

  /// With several searchers the reduced and exhaustive parts run on all of them, as `.reduced`
  /// and `.exhaustive` do.
  @Test("with two searchers, the reduced part, then the exhaustive part, settle a small program")
  func parallelExhaustivePart() async throws {
    var configuration = ExploreConfiguration(progressInterval: nil, searchers: 2, portfolioBudget: PortfolioBudget(time: nil))
    configuration.checksDeterminism = false
    let summary = try await explore(configuration: configuration, ExhaustiveSearchTests.independent(tasks: 3, segments: 3))
    #expect(summary.exploredEverySchedule)
    #expect(summary.budgetRanOut == nil)
    #expect(summary.portfolioParts.map(\.part) == [.reduced, .exhaustive])
    // The reduced part's searchers stop as soon as one of them can claim nothing.
    let reduced = try #require(summary.portfolioParts.first)
    #expect(reduced.ending == .unjustified && reduced.schedules < 20, "\(summary)")
    #expect(summary.portfolioParts.last == PortfolioPartSummary(part: .exhaustive, schedules: 1_680, ending: .triedEverySchedule))
  }

  @Test("the default budget is 2 seconds and 20,000 schedules")
  func defaultBudget() {
    #expect(ExploreConfiguration().portfolioBudget == PortfolioBudget(time: .seconds(2), schedules: 20_000))
    #expect(ExplorationStrategy.default.description.hasPrefix("default portfolio"))
  }
}

/// A gate nothing opens.
private actor NeverOpens {
  private var waiters: [CheckedContinuation<Void, Never>] = []
  func wait() async { await withCheckedContinuation { waiters.append($0) } }
}
