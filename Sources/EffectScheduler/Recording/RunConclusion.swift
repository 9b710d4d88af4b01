/// How the run under way ends, once that is known: its ending, the jobs it left behind, and a
/// misuse of the scheduler noted where it could not be thrown.
struct RunConclusion {
  /// The ending of a run ended by another thread than the first, and its paused jobs let go.
  var concludedEnding: RunEnding?
  var orphanedJobs: OrphanedJobs?
  /// A misuse of a controlled lock in the step under way, which ends the run after the step.
  var pendingMisuse: SchedulerError.Reason?
}
