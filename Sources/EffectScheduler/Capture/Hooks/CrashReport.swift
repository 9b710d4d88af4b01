#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// A program under test that traps (a `fatalError`, a `nil` force-unwrapped, a continuation
// resumed twice) takes the whole process down, and with it the exploration that was about to
// report the schedule. So before the process dies, a handler of the signals a trap raises prints
// the schedule of the run under way on the crashing thread, as a line that replays it, and then
// leaves the signal to whatever handled it before: returning re-raises a trap, and `abort` raises
// its signal again itself. It is installed once in a process, at the first run; a thread that
// drives no run prints nothing. Formatting the line may allocate, which a crash inside `malloc`
// could deadlock, so an alarm ends the process a few seconds later in any case.

/// The report of a run that crashed the process; see ``CrashReport/installed``.
enum CrashReport {
  /// Installs the handlers, once in the process, keeping the ones they replace.
  static let installed: Void = {
    for signal in signals { install(signal) }
  }()

  /// The signals a trap or a failed check raises.
  private static let signals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

  /// By signal number, the action in place before ours.
  nonisolated(unsafe) private static var previous: [SignalAction] = Array(repeating: SignalAction(), count: 64)

  private static func install(_ signal: Int32) {
    var action = SignalAction()
    #if os(Linux)
      action.__sigaction_handler.sa_handler = crashed
    #else
      action.__sigaction_u.__sa_handler = crashed
    #endif
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    sigaction(signal, &action, &previous[Int(signal)])
  }

  /// Puts back the action before ours for `signal`, and prints the crashing run's schedule.
  fileprivate static func report(_ signal: Int32) {
    sigaction(signal, &previous[Int(signal)], nil)
    guard let scheduler = DrivingThread.scheduler else { return }
    alarm(5)
    let schedule = Schedule(scheduler.trail.choices, splitsCriticalSections: scheduler.pausesBetweenSections)
    let text = """

      EffectScheduler: the process crashed (signal \(signal)) in step \(scheduler.step) of a run, under schedule \(schedule).
      Replay it: try await explore(.replay("\(schedule)")) { … }, or
        try await DeterministicScheduler.run(strategy: .replay(Schedule(parsing: "\(schedule)"))) { … }


      """
    _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
  }
}

/// What `sigaction` takes and gives back: the type, not the function of the same name.
private typealias SignalAction = sigaction

/// The handler: a plain C function, as `sigaction` takes.
private func crashed(_ signal: Int32) {
  CrashReport.report(signal)
}
