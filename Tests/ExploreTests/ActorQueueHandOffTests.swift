import BugCatalogue
@testable import EffectScheduler
@testable import Explore
import Synchronization
import Testing

/// A flag outside any actor, which the scheduler cannot see.
private final class Flag: Sendable {
  let value = Atomic(false)
}

/// An actor whose method starts a task isolated to it (the task captures `self`), so that the
/// task waits in the actor's queue until the caller leaves the actor.
private actor Owner {
  let flag = Flag()

  /// A task that reads its own cancelled flag as it starts.
  func startReadingCancellation(spawning spawn: Spawn) -> Task<Bool, Never> {
    switch spawn {
    case .effect: Task.effect { self.touch(); return Task.isCancelled }
    case .plain: Task { self.touch(); return Task.isCancelled }
    }
  }

  /// A task that reads the flag as it starts.
  func startReadingFlag(spawning spawn: Spawn) -> Task<Bool, Never> {
    switch spawn {
    case .effect: Task.effect { self.flag.value.load(ordering: .relaxed) }
    case .plain: Task { self.flag.value.load(ordering: .relaxed) }
    }
  }

  func touch() {}
}

/// The caller of `start` reaches the actor while another task waits for it too, so that the
/// actor's job runs both, and the task `start` makes waits in the actor's queue behind the other
/// one; `then` runs once the caller has left the actor, and the program reports what the task
/// made returned.
private func callerAmongOthers(
  _ owner: Owner, start: @escaping @Sendable (Owner) async -> Task<Bool, Never>, then: @escaping @Sendable (Task<Bool, Never>) -> Void,
  reporting report: AllOutcomes.Report
) async {
  await withTaskGroup(of: Void.self) { group in
    group.addTask {
      let task = await start(owner)
      then(task)
      report.finalState("\(await task.value)")
    }
    group.addTask { await owner.touch() }
  }
}

/// An actor's job runs the work of every task waiting in the actor's queue, one after another.
/// Where it hands a job over (a task leaving the actor, or the waiter of a task that completed on
/// it) while more work waits, it pauses, and goes on as a step of its own: on real threads the job
/// handed over runs alongside the rest of the actor's queue.
@Suite("Actor jobs that hand work over")
struct ActorQueueHandOffTests {
  @Test("a task made isolated to an actor can be cancelled before it starts: the full search sees it, and the reduced search, claiming every class, too",
    arguments: Spawn.allCases)
  func cancelledBeforeItStarts(spawn: Spawn) async {
    let program: @Sendable (AllOutcomes.Report) async -> Void = { report in
      await callerAmongOthers(Owner(), start: { await $0.startReadingCancellation(spawning: spawn) }, then: { $0.cancel() }, reporting: report)
    }
    let full = await AllOutcomes.of(DepthFirstSearch(), program)
    #expect(full.outcomes == ["finished: false", "finished: true"], "\(full.outcomes)")
    #expect(full.claimedEverySchedule)
    let reduced = await AllOutcomes.of(ReducedDepthFirstSearch(assumesNoUnseenSharing: true), program)
    #expect(reduced.outcomes == full.outcomes)
    #expect(reduced.claimedEverySchedule, "\(reduced.check.map { "\($0)" } ?? "")")
  }

  @Test("the caller leaving the actor goes on alongside the task it made there: a flag it sets may come first",
    arguments: Spawn.allCases)
  func flagSetAfterLeaving(spawn: Spawn) async {
    let program: @Sendable (AllOutcomes.Report) async -> Void = { report in
      let owner = Owner()
      await callerAmongOthers(owner, start: { await $0.startReadingFlag(spawning: spawn) }, then: { _ in owner.flag.value.store(true, ordering: .relaxed) }, reporting: report)
    }
    let full = await AllOutcomes.of(DepthFirstSearch(), program)
    #expect(full.outcomes == ["finished: false", "finished: true"], "\(full.outcomes)")
    let reduced = await AllOutcomes.of(ReducedDepthFirstSearch(), program)
    #expect(reduced.outcomes == full.outcomes)
  }

  @Test("a task made isolated to an actor is in the trace, made in the step of the actor's job that its maker ran in")
  func madeTaskIsTraced() async throws {
    let execution = try await DeterministicScheduler.run(strategy: .fifo) {
      let owner = Owner()
      await withTaskGroup(of: Void.self) { group in
        group.addTask { _ = await owner.startReadingCancellation(spawning: .plain).value }
        group.addTask { await owner.touch() }
      }
    }
    let trace = execution.trace
    let made = try #require(trace.tasks.first { $0.kind == .unstructured }, "\(trace)")
    let spawned = try #require(trace.events.first { $0.task == made.id && $0.kind == .spawned }, "\(trace)")
    #expect(trace.events.contains { $0.step == spawned.step && $0.kind == .actorJob }, "\(trace)")
    #expect(trace.events.contains { $0.task == made.id && $0.kind == .completed }, "\(trace)")
  }
}
