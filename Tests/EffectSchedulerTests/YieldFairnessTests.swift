@testable import EffectScheduler
import Testing

/// The fairness rule's bookkeeping, yield by yield: only a task that yields again while a task it
/// yielded to has still not run is on a streak, and only a streak past the bound is held back.
@Suite("The fairness rule's streaks")
struct YieldFairnessTests {
  let spinner = TaskID(1)
  let other = TaskID(2)

  @Test("a yield after the task it yielded to has run, one that never yields itself, starts the streak again")
  func anotherTaskRanBetweenTheYields() {
    var fairness = YieldFairness()
    let held1 = fairness.holdsBack(spinner, others: [other], step: 1, bound: 0, lone: 16, timerPending: false)
    #expect(!held1)
    fairness.noteStep(1, of: other)
    let held2 = fairness.holdsBack(spinner, others: [other], step: 2, bound: 0, lone: 16, timerPending: false)
    #expect(!held2)
    #expect(!fairness.removedABranch)
  }

  @Test("a yield while the task it yielded to has not run counts, and past the bound is held back, a branch removed")
  func anotherTaskKeptWaiting() {
    var fairness = YieldFairness()
    let held3 = fairness.holdsBack(spinner, others: [other], step: 1, bound: 1, lone: 16, timerPending: false)
    #expect(!held3)
    fairness.noteStep(1, of: spinner)
    let held4 = fairness.holdsBack(spinner, others: [other], step: 2, bound: 1, lone: 16, timerPending: false)
    #expect(!held4)
    fairness.noteStep(2, of: spinner)
    let held5 = fairness.holdsBack(spinner, others: [other], step: 3, bound: 1, lone: 16, timerPending: false)
    #expect(held5)
    #expect(fairness.removedABranch)
  }

  @Test("a task that made another ready since its last yield is making progress: no streak")
  func progressEndsTheStreak() {
    var fairness = YieldFairness()
    let held6 = fairness.holdsBack(spinner, others: [other], step: 1, bound: 0, lone: 16, timerPending: false)
    #expect(!held6)
    fairness.noteProgress(of: spinner)
    let held7 = fairness.holdsBack(spinner, others: [other], step: 2, bound: 0, lone: 16, timerPending: false)
    #expect(!held7)
  }
}
