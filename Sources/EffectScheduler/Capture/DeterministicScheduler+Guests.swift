extension DeterministicScheduler {
  /// Runs `body`, the jobs of a ``GuestExecutor``, on the driver thread as outside code: to the
  /// scheduler and the runtime hooks the thread is not driving while it runs, so whatever the
  /// guest hands the scheduler arrives from outside, through the mailbox, as it would from
  /// another thread, and what the guest sends to the global executor or the main actor goes
  /// there, not to this run.
  ///
  /// Call it on the driver thread, between two steps or from inside a step that blocks on the
  /// guest; the state of the step under way is left as it was.
  func hostAsGuest(_ body: () -> Void) {
    let wasHosting = hostsGuest
    let driving = DrivingThread.scheduler
    hostsGuest = true
    DrivingThread.set(nil)
    body()
    DrivingThread.set(driving)
    hostsGuest = wasHosting
  }
}
