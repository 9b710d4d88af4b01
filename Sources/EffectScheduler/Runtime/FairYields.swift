// Fair scheduling of tasks that yield (see `SchedulerConfiguration.yieldsBeforeFairness`).
//
// A task spinning on `Task.yield()` until another task acts is correct on any fair scheduler, but
// a search that may pick the spinning task again and again explores endless schedules. As in
// CHESS (Musuvathi and Qadeer, "Fair stateless model checking", PLDI 2008), a yield gives every
// other task that is ready at that moment priority over the yielding one: the yielding task's job
// is held back while any of them is ready and has not run since. Each task's first few yields
// are exempt, so that short unfair orders are still explored.
//
// A task that spins alone, waiting for a task that sleeps, has no one to yield to: on real
// threads time passes while it spins, until the sleep ends. So once it has yielded many times
// more than the fairness bound, a yield made while no other task is ready and a timer is pending
// holds the task back too, and the virtual clock moves on to the timer.

/// A job of a task that yielded, held back until the tasks it yielded to have run or are no
/// longer ready.
struct HeldBackYield {
  let job: UnownedJob
  let info: ReadyJob
  var yieldedTo: [TaskID]
}

extension DeterministicScheduler {
  /// Holds back the job of `task`, resumed from a yield, if the task has used up its unfair
  /// yields and other tasks are ready. Returns whether it did.
  func holdBackYield(_ job: UnownedJob, _ info: ReadyJob, of task: TaskID) -> Bool {
    guard let bound = configuration.yieldsBeforeFairness else { return false }
    registry[task].yields += 1
    guard registry[task].yields > bound else { return false }
    var yieldedTo: [TaskID] = []
    for owner in readyInfo.lazy.compactMap(\.owner) where owner != task && !yieldedTo.contains(owner) {
      yieldedTo.append(owner)
    }
    let spinsAlone = registry[task].yields > bound + Self.loneYieldsBeforeTimePasses && !timers.isEmpty
    guard !yieldedTo.isEmpty || spinsAlone else { return false }
    heldBackYields.append(HeldBackYield(job: job, info: info, yieldedTo: yieldedTo))
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
    while index < heldBackYields.count {
      if let owner { heldBackYields[index].yieldedTo.removeAll { $0 == owner } }
      let waiting = heldBackYields[index].yieldedTo.contains { task in readyInfo.contains { $0.owner == task } }
      if waiting {
        index += 1
      } else {
        let held = heldBackYields.remove(at: index)
        readyJobs.append(held.job)
        readyInfo.append(held.info)
      }
    }
  }

  /// Makes every held-back job ready again, when nothing else is.
  func releaseAllYields() {
    for held in heldBackYields {
      readyJobs.append(held.job)
      readyInfo.append(held.info)
    }
    heldBackYields.removeAll(keepingCapacity: true)
  }
}
