import BugCatalogue
@testable import EffectScheduler
@testable import Explore
import Testing

/// An actor whose method reads the caller's cancelled flag.
private actor Checker {
  func callerIsCancelled() -> Bool { Task.isCancelled }
}

/// What a task saw, kept on an actor so that the reduction sees the writes.
private actor Log {
  private(set) var entries: [String] = []
  func add(_ entry: String) { entries.append(entry) }
}

/// Small programs where one task cancels another that reads its cancelled flag: the outcome
/// depends on whether the cancel comes before the read, and the reduced search must try both.
enum CancellationProgram: String, CaseIterable, CustomStringConvertible {
  case readInTask, readInActorMethod, cancelledSleep, cancellationHandler, groupCancelAll, readAfterYield
  /// A third task reads the cancelled task's flag through its handle, and logs it on an actor.
  case readThroughHandle

  var description: String { rawValue }

  func run(spawning spawn: Spawn, reporting report: AllOutcomes.Report) async throws {
    switch self {
    case .readInTask:
      let reader = spawn(name: "reader") { report.finalState("\(Task.isCancelled)") }
      let canceller = spawn(name: "canceller") { reader.cancel() }
      await reader.value
      await canceller.value
    case .readInActorMethod:
      let checker = Checker()
      let log = Log()
      let reader = spawn(name: "reader") { await log.add("\(await checker.callerIsCancelled())") }
      let canceller = spawn(name: "canceller") { reader.cancel() }
      await reader.value
      await canceller.value
      report.finalState(await log.entries.joined(separator: ","))
    case .cancelledSleep:
      let log = Log()
      let sleeper = spawn(name: "sleeper") {
        let slept = (try? await Task.sleep(for: .seconds(1))) != nil
        await log.add(slept ? "slept" : "cancelled")
      }
      let canceller = spawn(name: "canceller") { sleeper.cancel() }
      await sleeper.value
      await canceller.value
      report.finalState(await log.entries.joined(separator: ","))
    case .cancellationHandler:
      let log = Log()
      let worker = spawn(name: "worker") {
        await withTaskCancellationHandler {
          await log.add("working")
        } onCancel: {
          Task { await log.add("handler") }
        }
      }
      let canceller = spawn(name: "canceller") { worker.cancel() }
      await worker.value
      await canceller.value
      await Task.yield()
      report.finalState(await log.entries.sorted().joined(separator: ","))
    case .groupCancelAll:
      let log = Log()
      await withTaskGroup(of: Void.self) { group in
        group.addTask { await log.add("child \(Task.isCancelled)") }
        group.cancelAll()
      }
      report.finalState(await log.entries.joined(separator: ","))
    case .readThroughHandle:
      let log = Log()
      let target = spawn(name: "target") { await Task.yield() }
      let canceller = spawn(name: "canceller") { target.cancel() }
      let reader = spawn(name: "reader") { await log.add("\(target.isCancelled)") }
      await canceller.value
      await reader.value
      await target.value
      report.finalState(await log.entries.joined(separator: ","))
    case .readAfterYield:
      let log = Log()
      let reader = spawn(name: "reader") {
        await Task.yield()
        await log.add("\(Task.isCancelled)")
      }
      let canceller = spawn(name: "canceller") { reader.cancel() }
      await reader.value
      await canceller.value
      report.finalState(await log.entries.joined(separator: ","))
    }
  }
}

@Suite("The reduced search and cancellation")
struct ReducedCancellationTests {
  @Test("a cancel racing a read of the cancelled flag: the reduced search sees every outcome the full one sees",
    arguments: CancellationProgram.allCases, Spawn.allCases)
  func sameOutcomes(program: CancellationProgram, spawn: Spawn) async {
    await AllOutcomes.expectReducedSearchSeesEverything(limit: 5_000, "\(program), \(spawn)") {
      try await program.run(spawning: spawn, reporting: $0)
    }
  }

  @Test("the minimal race: a task reads Task.isCancelled while another cancels it, both outcomes")
  func minimalRace() async {
    let outcomes = await AllOutcomes.of(ReducedDepthFirstSearch()) { try await CancellationProgram.readInTask.run(spawning: .effect, reporting: $0) }
    #expect(outcomes.outcomes == ["finished: false", "finished: true"])
  }
}

@Suite("Spelling the reduced search")
struct ReducedSpellingTests {
  @Test(".reduced needs no parentheses, like .exhaustive, and means the same as .reduced()")
  func withoutParentheses() async throws {
    let configuration = ExploreConfiguration(progressInterval: nil)
    let bare = try await explore(.reduced, configuration: configuration) { await Task.yield() }
    let called = try await explore(.reduced(), configuration: configuration) { await Task.yield() }
    #expect(bare.strategy == called.strategy)
    #expect(bare.schedules == called.schedules && bare.exploredEverySchedule)
  }
}
