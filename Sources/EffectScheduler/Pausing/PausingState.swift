/// The jobs paused in their synchronous code, and the threads that host them while they wait
/// (see the Pausing folder).
struct PausingState {
  var pausedJobs: [PausedJob] = []
  /// Whether the job about to pause is an actor's, at a hand-off (see `pauseDrainIfItGoesOn`).
  var pausingAtHandOff = false
  /// The run's threads parked at the end of a step, ready to go on with the loop.
  var idleHosts: [HostThread] = []
  /// The thread that called ``drive()``, whose caller waits for the run's ending.
  var originalHost: HostThread?
  /// Whether the run's first thread runs no job and waits for the run's ending, parked (see
  /// ``drive()``).
  var firstThreadWaitsApart = false
}
