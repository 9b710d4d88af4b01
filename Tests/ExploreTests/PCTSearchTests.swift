import EffectScheduler
@testable import Explore
import Testing

private let first = TaskID(1)
private let second = TaskID(2)

/// An actor's job scheduled by `task`.
private func actorJob(scheduledBy task: TaskID?, fromOutside: Bool = false) -> ReadyJob {
  ReadyJob(task: nil, arrivedFromOutside: fromOutside, scheduledBy: task)
}

/// The positions a fresh PCT search picks, run after run, for the ready jobs of each step in
/// `steps`. With one expected step, every change point falls on step 0.
private func picks(depth: Int, runs: Int, _ steps: [[ReadyJob]]) -> [[Int]] {
  var search = PCTSearch(depth: depth, schedules: runs, expectedSteps: 1, seed: ExplorationStrategy.defaultSeed)
  var picks: [[Int]] = []
  while search.beginRun() {
    picks.append(steps.enumerated().map { step, ready in search.nextJob(among: ready, step: step) })
  }
  return picks
}

@Suite("PCT priorities for actors' jobs")
struct PCTSearchTests {
  /// Depth 1 has no change point, so the pick follows the initial priorities; depth 2 has one
  /// on step 0, which lowers the task about to run. Either way, an actor's job scheduled by task
  /// #1 is picked exactly when #1's own job would be.
  @Test("an actor's job has the priority of the task that scheduled it, and a change point on it lowers that task",
    arguments: [1, 2])
  func actorJobTakesItsTasksPriority(depth: Int) {
    let withActor = picks(depth: depth, runs: 40, [[actorJob(scheduledBy: first), ReadyJob(task: second)]])
    let withTask = picks(depth: depth, runs: 40, [[ReadyJob(task: first), ReadyJob(task: second)]])
    #expect(withActor == withTask)
    // The actor's job does not always go first.
    #expect(Set(withActor.map { $0[0] }) == [0, 1])
  }

  /// The actor's job from outside has no task to lower, so step 0's change point waits for step
  /// 1, where it lowers the task that would have run: step 1 then picks what step 0 picks when
  /// the two tasks are ready at once.
  @Test("a change point landing on an actor's job with no known task moves on to the next step")
  func changePointMovesOn() {
    let tasks = [ReadyJob(task: first), ReadyJob(task: second)]
    let postponed = picks(depth: 2, runs: 40, [[actorJob(scheduledBy: nil, fromOutside: true)] + tasks, tasks])
    let direct = picks(depth: 2, runs: 40, [tasks])
    #expect(postponed.map { $0[0] } == Array(repeating: 0, count: 40))
    #expect(postponed.map { $0[1] } == direct.map { $0[0] })
  }
}
