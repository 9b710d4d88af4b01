import EffectScheduler
import Explore
import Synchronization
import Testing

/// A log that an actor keeps.
private actor Log {
  private(set) var items: [String] = []
  func add(_ item: String) { items.append(item) }
}

/// The exhaustive search against a count model that knows nothing of the scheduler: the orders of
/// the tasks' steps, respecting spawn and join order (``CountedProgram``). A rule that dropped
/// schedules of a program that ends, as fairness for spinning tasks once did, shows up here as a
/// smaller count.
@Suite("Exhaustive search against a count model")
struct ExhaustiveCountModelTests {
  static let configuration: ExploreConfiguration = {
    var configuration = ExploreConfiguration(progressInterval: nil)
    configuration.checksDeterminism = false
    return configuration
  }()

  @Test("the count model agrees with the closed forms: (N·k)!/(k!^N) for N tasks of k steps")
  func modelAgreesWithClosedForms() {
    let fiveYields = [CountedStatement](repeating: .yield, count: 5)
    // Two group children of five yields each: C(12, 6) orders of their six steps each, then the
    // root's last step.
    #expect(CountedProgram(root: [.group([fiveYields, fiveYields], discarding: true)]).scheduleCount(limit: .max) == 924)
    #expect(CountedProgram(root: [.group([[.yield, .yield], [.yield, .yield], [.yield, .yield]], discarding: true)]).scheduleCount(limit: .max) == 1680)
  }

  @Test("two tasks of five yields each: every one of the C(12, 6) orders of their steps")
  func twoTasksOfFiveYields() async throws {
    let fiveYields = [CountedStatement](repeating: .yield, count: 5)
    for discarding in [true, false] {
      let program = CountedProgram(root: [.group([fiveYields, fiveYields], discarding: discarding)])
      let summary = try await explore(.exhaustive, configuration: Self.configuration) { await CountedProgram.run(program.root) }
      #expect(summary.schedules == program.scheduleCount(limit: .max), "\(program)")
      #expect(summary.exploredEverySchedule, "\(summary)")
    }
  }

  @Test("a task logging after each of four yields: another task's entry lands at each of the five places")
  func everyPlaceOfAnEntry() async throws {
    let places = Mutex<Set<Int>>([])
    let summary = try await explore(.exhaustive, configuration: Self.configuration) {
      let log = Log()
      let a = Task {
        for i in 0..<4 {
          await Task.yield()
          await log.add("a\(i)")
        }
      }
      let b = Task { await log.add("b") }
      _ = await (a.value, b.value)
      if let place = await log.items.firstIndex(of: "b") { places.withLock { _ = $0.insert(place) } }
    }
    #expect(places.withLock { $0 } == [0, 1, 2, 3, 4])
    #expect(summary.exploredEverySchedule, "\(summary)")
  }

  @Test("generated programs of groups, async lets and nested tasks: the exhaustive search runs exactly the model's count")
  func generatedPrograms() async throws {
    var compared = 0
    var disagreements: [String] = []
    var seed: UInt64 = 51_000
    while compared < 500 {
      seed += 1
      let program = CountedProgram.generated(seed: seed)
      guard let expected = program.scheduleCount(limit: 1_500) else { continue }
      compared += 1
      let summary = try await explore(.exhaustive, configuration: Self.configuration) { await CountedProgram.run(program.root) }
      if summary.schedules != expected || !summary.exploredEverySchedule {
        disagreements.append("seed \(seed): model \(expected), exhaustive \(summary.schedules): \(program) — \(summary)")
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.count) of \(compared) disagree:\n\(disagreements.prefix(10).joined(separator: "\n"))")
  }

  @Test("a task that yields more times in a row than the fairness bound while another waits: fewer schedules, and the claim says why")
  func yieldingPastTheBound() async throws {
    let bound = try #require(SchedulerConfiguration().yieldsBeforeFairness)
    let long = [CountedStatement](repeating: .yield, count: bound + 3)
    let program = CountedProgram(root: [.group([long, [.yield]], discarding: true)])
    let summary = try await explore(.exhaustive, configuration: Self.configuration) { await CountedProgram.run(program.root) }
    #expect(try summary.schedules < #require(program.scheduleCount(limit: .max)))
    #expect(summary.claim.coversEverySchedule)
    #expect(summary.claim.assumptions == [.fairYields])
    #expect(!summary.exploredEverySchedule)
    #expect(summary.description.contains("assumed: the fairness rule held back"), "\(summary)")
    // Without the rule, every order.
    var unfair = Self.configuration
    unfair.scheduler.yieldsBeforeFairness = nil
    let all = try await explore(.exhaustive, configuration: unfair) { await CountedProgram.run(program.root) }
    #expect(all.schedules == program.scheduleCount(limit: .max))
    #expect(all.exploredEverySchedule)
  }
}

