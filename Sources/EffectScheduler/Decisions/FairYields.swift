// Fair scheduling of tasks that spin on `Task.yield()` (see `SchedulerConfiguration.yieldsBeforeFairness`).
//
// A task spinning on `Task.yield()` until another task acts is correct on any fair scheduler, but
// a search that may pick the spinning task again and again explores endless schedules. As in
// CHESS (Musuvathi and Qadeer, "Fair stateless model checking", PLDI 2008), a yield can give the
// tasks ready at that moment priority over the yielding one: its job is held back until each of
// them has run or is no longer ready.
//
// Holding back removes schedules that real threads produce, so it is kept for what looks like a
// spin: a task that yields again having made no progress the scheduler can see since its last
// yield (it made no other task ready: no spawn, no continuation resumed, no element delivered),
// while a task ready at that last yield has still not run, more times in a row than the bound.
// A loop of a few yields among other tasks is never held back, so its interleavings are all
// explored; a run in which holding back did remove a branch says so, and an exploration's claim
// then names the fairness rule among its assumptions.
//
// A task that spins alone, waiting for a task that sleeps, has no one to yield to: on real
// threads time passes while it spins, until the sleep ends. So once it has yielded alone many
// times more than the bound, with a timer pending, it is held back too, and the virtual clock
// moves on to the timer.

/// A job of a task that yielded, held back until the tasks it yielded to have run or are no
/// longer ready.
struct HeldBackYield {
  let job: UnownedJob
  let info: ReadyJob
  var yieldedTo: [TaskID]
}

/// What the fairness rule knows of one run's yields: the jobs it holds back, each task's streak of
/// yields without progress, and whether holding back removed a branch.
package struct YieldFairness {
  /// One task's yields.
  private struct Streak {
    /// The last step that ran the task's work: its own job, or an actor's job scheduled for it.
    var lastRan = -1
    /// The step after which the task last yielded (the first step that could follow its yield).
    var lastYield: Int?
    /// The tasks other than it that were ready when it last yielded.
    var yieldedTo: [TaskID] = []
    /// Whether it made another task ready since its last yield.
    var madeProgress = false
    /// How many of its yields in a row came without progress while a task it had yielded to was
    /// still waiting to run.
    var unfairRepeats = 0
    /// How many of its yields in a row came without progress while no other task was ready.
    var loneRepeats = 0
  }

  /// The held-back jobs, in the order they were held back.
  var held: [HeldBackYield] = []
  /// Whether the trampolines of yields are running, so an admitted task job resumes a yield.
  var resumingYields = false
  /// Whether holding back took a choice away from the strategy in this run.
  package private(set) var removedABranch = false
  private var streaks: [Streak] = []

  /// Notes that `step` ran work of `owner`'s: a task that yields later asks whether it has run
  /// since, whether or not it ever yields itself.
  @inline(__always)
  mutating func noteStep(_ step: Int, of owner: TaskID) {
    if owner.rawValue >= streaks.count { streaks.append(contentsOf: repeatElement(Streak(), count: owner.rawValue + 1 - streaks.count)) }
    streaks[owner.rawValue].lastRan = step
  }

  /// Notes that `task`'s running step made another task ready.
  @inline(__always)
  mutating func noteProgress(of task: TaskID) {
    guard task.rawValue < streaks.count else { return }
    streaks[task.rawValue].madeProgress = true
  }

  /// Whether `task`'s yield, made with `others` ready before `step`, is to be held back: a repeat
  /// without progress past `bound` while a task it yielded to waits, or, with a timer pending
  /// (`timerPending`), past `bound` and `lone` more while it is alone. Records the yield either way.
  mutating func holdsBack(_ task: TaskID, others: [TaskID], step: Int, bound: Int, lone: Int, timerPending: Bool) -> Bool {
    if task.rawValue >= streaks.count { streaks.append(contentsOf: repeatElement(Streak(), count: task.rawValue + 1 - streaks.count)) }
    var streak = streaks[task.rawValue]
    let repeats = streak.lastYield != nil && !streak.madeProgress
    let since = streak.lastYield ?? 0
    let kept = repeats && streak.yieldedTo.contains { waiting in others.contains(waiting) && lastRan(waiting) < since }
    streak.unfairRepeats = kept ? streak.unfairRepeats + 1 : 0
    streak.loneRepeats = repeats && others.isEmpty && streak.yieldedTo.isEmpty ? streak.loneRepeats + 1 : 0
    streak.lastYield = step
    streak.yieldedTo = others
    streak.madeProgress = false
    streaks[task.rawValue] = streak
    let holds =
      others.isEmpty ? timerPending && streak.loneRepeats > bound + lone : streak.unfairRepeats > bound
    if holds { removedABranch = true }
    return holds
  }

  private func lastRan(_ task: TaskID) -> Int { task.rawValue < streaks.count ? streaks[task.rawValue].lastRan : -1 }

  /// Forgets the run, keeping storage.
  mutating func removeAll() {
    if !held.isEmpty { held.removeAll(keepingCapacity: true) }
    if !streaks.isEmpty { streaks.removeAll(keepingCapacity: true) }
    resumingYields = false
    removedABranch = false
  }
}

extension DeterministicScheduler {
  /// Holds back the job of `task`, resumed from a yield, if the fairness rule says so (see
  /// ``YieldFairness/holdsBack(_:others:step:bound:lone:timerPending:)``). Returns whether it did.
  func holdBackYield(_ job: UnownedJob, _ info: ReadyJob, of task: TaskID) -> Bool {
    guard let bound = configuration.yieldsBeforeFairness else { return false }
    var others: [TaskID] = []
    for owner in queue.readyInfo.lazy.compactMap(\.owner) where owner != task && !others.contains(owner) {
      others.append(owner)
    }
    guard
      fairYields.holdsBack(
        task, others: others, step: step, bound: bound, lone: Self.loneYieldsBeforeTimePasses, timerPending: !time.timers.isEmpty)
    else { return false }
    fairYields.held.append(HeldBackYield(job: job, info: info, yieldedTo: others))
    return true
  }

  /// How many yields past the fairness bound a task makes with no other task ready before the
  /// next one lets time pass: a short loop of yields is no spin, and takes far less time than a
  /// sleep.
  static let loneYieldsBeforeTimePasses = 16

  /// After a step of `owner`'s, makes ready again each held-back job none of whose tasks it
  /// yielded to is both ready and yet to run.
  func releaseYields(afterStepOf owner: TaskID?) {
    var index = 0
    while index < fairYields.held.count {
      if let owner { fairYields.held[index].yieldedTo.removeAll { $0 == owner } }
      let waiting = fairYields.held[index].yieldedTo.contains { task in queue.readyInfo.contains { $0.owner == task } }
      if waiting {
        index += 1
      } else {
        let held = fairYields.held.remove(at: index)
        queue.readyJobs.append(held.job)
        queue.readyInfo.append(held.info)
      }
    }
  }

  /// Makes every held-back job ready again, when nothing else is.
  func releaseAllYields() {
    for held in fairYields.held {
      queue.readyJobs.append(held.job)
      queue.readyInfo.append(held.info)
    }
    fairYields.held.removeAll(keepingCapacity: true)
  }
}
