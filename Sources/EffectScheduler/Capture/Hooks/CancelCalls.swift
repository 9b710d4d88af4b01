#if canImport(Glibc)
  import Glibc
#endif

// A step that makes a task's job ready (starting the task, resuming its continuation) and then
// cancels it, with no suspension between: on real threads the task may start between the two and
// find itself not cancelled. The runtime makes the cancellation without telling the executor, but
// the program calls it through `Task.cancel()`, which only passes its one argument, the task, on
// to `swift_task_cancel` (`UnsafeCurrentTask.cancel()` takes its task another way, and is left).
// So on 64-bit Linux the slots through which the image holding this code (the program's, as
// SwiftPM links a test or an executable) calls either are pointed at a function that, on a driving
// thread, makes such a cancellation a scheduling point: the task made ready may run first.
// Elsewhere, or through another library's slot, the order stays unexplored and the run says so
// (CancelledWhereMadeReady.swift).

extension DeterministicScheduler {
  /// Before the running step cancels the task at `address`: a scheduling point, if the step made
  /// that task ready and it has not run since, so that it may start first.
  func willCancel(taskAt address: UInt) {
    guard running.runningStep != nil, let task = tasks.registry.latestTask(at: address),
      let index = trail.madeReadyInStep.firstIndex(where: { $0.task == task }), mayPause
    else { return }
    // Either order is now in some schedule: the step's end has nothing to note.
    trail.madeReadyInStep.remove(at: index)
    let name = tasks.registry[task].info.descriptionWithoutOrigin
    _ = pauseRunningJob(blockedOn: nil, noting: LockPause(step: step, atLockAt: address, kind: "cancelling task \(name)", waits: false))
  }
}

/// Makes the cancellations of tasks a step just made ready scheduling points.
enum CancelCalls {
  /// The slots through which the image holding this code calls `swift_task_cancel`, pointed at
  /// the pausing function once, the first time it is read.
  static let claimed: Void = {
    #if os(Linux) && _pointerBitWidth(_64)
      guard realCancel != nil else { return }
      let replacement = unsafeBitCast(pausingCancel, to: UnsafeRawPointer.self)
      let callers = ["$sScT6cancelyyF", "swift_task_cancel"]
      let slots = callers.flatMap { ImportedFunctionSlot.slots(of: $0, inLibraryContaining: replacement) }
      SlotRedirections(slots.map { ($0, replacement) }).claim()
    #endif
  }()

  #if os(Linux) && _pointerBitWidth(_64)
    /// `swift_task_cancel`, whose one argument travels in the same register under the Swift and C
    /// calling conventions.
    private typealias Cancel = @convention(c) (UnsafeRawPointer?) -> Void

    private static let realCancel: Cancel? = runtimeFunction("swift_task_cancel")

    /// On a driving thread of a run, the scheduling point, then the cancellation.
    private static let pausingCancel: Cancel = { task in
      if let task, RuntimeHooks.runsUnderWay.load(ordering: .relaxed) > 0, let scheduler = DeterministicScheduler.controllingCallingThread {
        scheduler.willCancel(taskAt: UInt(bitPattern: task))
      }
      realCancel!(task)
    }
  #endif
}
