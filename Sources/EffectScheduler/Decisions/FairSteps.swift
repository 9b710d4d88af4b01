// Fair scheduling of long runs (see `SchedulerConfiguration.stepsBeforeFairness`).
//
// A strategy may keep a ready task waiting for as long as others are ready: PCT does so by
// design once it has lowered the task's priority, and a program whose tasks keep making new
// work (a loop that advances a test clock, yielding from a fresh task each time, until a sleeper
// has woken) then never ends, where on real threads the waiting task runs in a moment. As in
// Coyote, which schedules fairly past a bound of unfair steps, a run that goes on past the bound
// has each later step run the job ready longest, a due timer before it: no task that is ready
// waits for ever, so a run that still does not end is a livelock under fair scheduling too. The
// strategy is asked still, with that one option, so that its steps stay numbered as the run's;
// where it had more, the run notes that the orders of its later steps were not explored.

extension DeterministicScheduler {
  /// The step from which a run schedules fairly.
  var stepsBeforeFairness: Int { configuration.stepsBeforeFairness ?? .max }

  /// Offers `pick` only the job ready longest, or a due timer when one is offered (the last of
  /// the ready options then), and returns the position that takes among all the ready options.
  func pickFairly(_ pick: ([ReadyJob], Int) throws -> Int) throws -> Int {
    let timerDue = queue.readyInfo.last == .timer && hasTimerDue
    let only = timerDue ? queue.readyInfo.count - 1 : 0
    if queue.readyInfo.count > 1, trail.unexplored == nil {
      trail.unexplored =
        "a run went on past step \(stepsBeforeFairness), after which each step ran the job ready longest "
        + "(SchedulerConfiguration.stepsBeforeFairness) and no other order of its later steps was tried"
    }
    _ = try pick([queue.readyInfo[only]], step)
    return only
  }
}
