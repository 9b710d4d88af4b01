#if canImport(Glibc)
  import Glibc
#endif

// A task may read another task's cancelled flag through its handle (`task.isCancelled`), and what
// it reads depends on whether the step that cancels that task came first: the two steps are
// dependent, though no job shows it. The runtime answers every such read through
// `swift_task_isCancelled`, so where a search asks (``StrategyReference/watchesHiddenAccesses``),
// the slots through which the image holding this code (the program's, as SwiftPM links a test or
// an executable) calls it are pointed, on 64-bit Linux, at a function that notes each read of a
// task of the run other than the running one, on a driving thread, then answers it. A task's
// reads of its own flag need no note: every step of a task is taken to read it. The scheduler's
// own reads of the flags go to the runtime directly (`TaskReader`), past the slots. Elsewhere,
// and through a slot of another library, such a read stays unseen.

extension DeterministicScheduler {
  /// Notes that the running step read the cancelled flag of the task at `address`, when that is a
  /// task of the run other than the running one: the latest registered there, as a task's memory
  /// may be another's once it completes.
  func noteCancellationRead(ofTaskAt address: UInt) {
    if let running = taskReader.currentTaskAddress(), UInt(bitPattern: running) == address { return }
    guard let task = tasks.registry.latestTask(at: address) else { return }
    let read = TaskRead(step: step, task: task)
    if trail.taskReads.last != read { trail.taskReads.append(read) }
  }
}

/// Notes the reads of other tasks' cancelled flags a watching run's steps make.
enum CancellationReads {
  /// The slots through which the image holding this code calls `swift_task_isCancelled`, pointed
  /// at the noting function the first time it is read, which a run that watches does.
  static let redirections: SlotRedirections = {
    #if os(Linux) && _pointerBitWidth(_64)
      guard realIsCancelled != nil else { return SlotRedirections([]) }
      let thisImage = unsafeBitCast(notingIsCancelled, to: UnsafeRawPointer.self)
      let slots = ImportedFunctionSlot.slots(of: "swift_task_isCancelled", inLibraryContaining: thisImage)
      return SlotRedirections(slots.map { ($0, thisImage) })
    #else
      return SlotRedirections()
    #endif
  }()

  #if os(Linux) && _pointerBitWidth(_64)
    /// `swift_task_isCancelled`, whose argument and result travel in the same registers under the
    /// Swift and C calling conventions.
    private typealias IsCancelled = @convention(c) (UnsafeRawPointer?) -> Bool

    private static let realIsCancelled: IsCancelled? = runtimeFunction("swift_task_isCancelled")

    /// Notes the read on a driving thread of a run that watches, then answers it. Off the threads
    /// that drive a run, a read costs one read of a thread-local value more.
    private static let notingIsCancelled: IsCancelled = { task in
      if let task {
        DrivingThread.withScheduler { scheduler in
          if scheduler.watchedHiddenAccesses, scheduler.isDriving { scheduler.noteCancellationRead(ofTaskAt: UInt(bitPattern: task)) }
        }
      }
      return realIsCancelled!(task)
    }
  #endif
}
