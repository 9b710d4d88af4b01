#if canImport(Glibc)
  import Glibc
#endif

// Work a run hands to Dispatch runs outside the scheduler's control, at its own time. When it
// hands something back later (a continuation resumed after its task suspended), the job arrives
// from outside and `explore` says so; but when it does so before the task has suspended, the
// task goes straight on and nothing comes back to see, and the run would pass on a race the
// scheduler never decided. So the hand-off itself is noted: on Linux, the Swift Dispatch overlay's
// slots for the functions that queue work (`DispatchQueue.async`, `asyncAfter`, a group's `async`
// and `notify`, `async(flags: .barrier)`) or start a dispatch object that will run handlers of its
// own (`resume()` and `activate()` of a source or an inactive queue, as a signal or timer source
// needs) are pointed at functions that note a hand-off made by a
// run's code, on its driver thread while it drives, and pass the call on to libdispatch. A call
// made by a thread the run started is noted too, for the run's stuck-run wait: the work may come
// back after that thread has ended. Every other caller, Dispatch used from C or by other
// libraries among them, is untouched.

/// Work the code of a run handed to the outside: where, by whom, and through what.
package struct HandOff: Hashable, Sendable {
  /// The step during which the run's code handed the work over.
  package let step: Int
  /// The task whose code did, if the scheduler can tell.
  package let task: TaskID?
  /// What it called, such as `DispatchQueue.async`.
  package let call: String
}

extension DeterministicScheduler {
  /// Notes that the running code handed work to `call`.
  func noteHandOff(through call: String) {
    trail.handOffs.append(HandOff(step: step, task: currentTaskID(), call: call))
  }
}

/// Installs the noting of hand-offs to Dispatch.
enum DispatchHandOffs {
  /// The Swift Dispatch overlay's slots for the functions that queue work, pointed at the noting
  /// functions the first time it is read.
  static let redirections: SlotRedirections = {
    #if os(Linux) && _pointerBitWidth(_64)
      // A symbol of the Swift Dispatch overlay, to find its library by: `DispatchTime.now()`.
      let overlay = "$s8Dispatch0A4TimeV3nowACyFZ"
      let redirections: [(String, UnsafeRawPointer?)] = [
        ("dispatch_async", realAsync.map { _ in unsafeBitCast(async, to: UnsafeRawPointer.self) }),
        ("dispatch_barrier_async", realBarrierAsync.map { _ in unsafeBitCast(barrierAsync, to: UnsafeRawPointer.self) }),
        ("dispatch_after", realAfter.map { _ in unsafeBitCast(after, to: UnsafeRawPointer.self) }),
        ("dispatch_group_async", realGroupAsync.map { _ in unsafeBitCast(groupAsync, to: UnsafeRawPointer.self) }),
        ("dispatch_group_notify", realGroupNotify.map { _ in unsafeBitCast(groupNotify, to: UnsafeRawPointer.self) }),
        ("dispatch_resume", realResume.map { _ in unsafeBitCast(resume, to: UnsafeRawPointer.self) }),
        ("dispatch_activate", realActivate.map { _ in unsafeBitCast(activate, to: UnsafeRawPointer.self) }),
      ]
      var slots: [(ImportedFunctionSlot, UnsafeRawPointer)] = []
      for case let (function, replacement?) in redirections {
        slots += ImportedFunctionSlot.slots(of: function, inLibraryDefining: overlay).map { ($0, replacement) }
      }
      return SlotRedirections(slots)
    #else
      return SlotRedirections()
    #endif
  }()

  /// Whether the run's hand-offs to Dispatch are seen on this platform (64-bit Linux, where the
  /// overlay's slots were found): where they are not, a run stuck on a continuation cannot tell
  /// whether a dispatch queue's thread is about to resume it.
  static var areSeen: Bool { !redirections.isEmpty }

  /// Notes a hand-off through `call` if the calling thread drives a run and runs its code, or is
  /// a thread a run started: its work may come back after the thread has ended.
  private static func noteHandOff(through call: String) {
    guard RuntimeHooks.runsUnderWay.load(ordering: .relaxed) > 0 else { return }
    if let scheduler = DrivingThread.scheduler, scheduler.isDriving {
      scheduler.noteHandOff(through: call)
    } else {
      #if os(Linux) && _pointerBitWidth(_64)
        RunThreads.noteHandOffToDispatchByCallingThread()
      #endif
    }
  }

  #if os(Linux) && _pointerBitWidth(_64)
    // A queue, a group, a source or a block is passed as a pointer; a time as its 64 bits.
    private typealias Object = @convention(c) (UnsafeRawPointer?) -> Void
    private typealias QueueBlock = @convention(c) (UnsafeRawPointer?, UnsafeRawPointer?) -> Void
    private typealias TimeQueueBlock = @convention(c) (UInt64, UnsafeRawPointer?, UnsafeRawPointer?) -> Void
    private typealias GroupQueueBlock = @convention(c) (UnsafeRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?) -> Void

    private static let realAsync: QueueBlock? = runtimeFunction("dispatch_async")
    private static let realBarrierAsync: QueueBlock? = runtimeFunction("dispatch_barrier_async")
    private static let realAfter: TimeQueueBlock? = runtimeFunction("dispatch_after")
    private static let realGroupAsync: GroupQueueBlock? = runtimeFunction("dispatch_group_async")
    private static let realGroupNotify: GroupQueueBlock? = runtimeFunction("dispatch_group_notify")
    private static let realResume: Object? = runtimeFunction("dispatch_resume")
    private static let realActivate: Object? = runtimeFunction("dispatch_activate")

    private static let async: QueueBlock = { queue, block in
      noteHandOff(through: "DispatchQueue.async")
      realAsync!(queue, block)
    }
    private static let barrierAsync: QueueBlock = { queue, block in
      noteHandOff(through: "DispatchQueue.async(flags: .barrier)")
      realBarrierAsync!(queue, block)
    }
    private static let after: TimeQueueBlock = { time, queue, block in
      noteHandOff(through: "DispatchQueue.asyncAfter")
      realAfter!(time, queue, block)
    }
    private static let groupAsync: GroupQueueBlock = { group, queue, block in
      noteHandOff(through: "DispatchQueue.async(group:)")
      realGroupAsync!(group, queue, block)
    }
    private static let groupNotify: GroupQueueBlock = { group, queue, block in
      noteHandOff(through: "DispatchGroup.notify")
      realGroupNotify!(group, queue, block)
    }
    private static let resume: Object = { object in
      noteHandOff(through: "DispatchObject.resume")
      realResume!(object)
    }
    private static let activate: Object = { object in
      noteHandOff(through: "DispatchObject.activate")
      realActivate!(object)
    }
  #endif
}
