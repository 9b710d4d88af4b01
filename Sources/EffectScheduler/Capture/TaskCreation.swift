#if canImport(Runtime) && os(Linux) && _pointerBitWidth(_64)
  // For the calling thread's registers, which the module offers only to its own tools; this
  // library already reads Swift 6.3's runtime layouts.
  @_spi(Contexts) import Runtime
#endif

// The runtime keeps no record of where a plain `Task {}` was made, and the name of the function
// its body is does not say it either (a closure's symbol names no line). But the runtime hands
// the scheduler a new task's first job while creating it, on the creating thread: the code that
// wrote `Task {` is on the call stack at that moment, a few frames below `swift_task_create`. So
// the scheduler records the return addresses there, and a report that names the task reads the
// program's debug information for them (TaskCreationSymbols.swift), once per call stack in the
// process.
//
// The stack is walked by its frame pointers, which Swift code and the concurrency runtime keep on
// Linux: about a tenth of a microsecond a task, where `backtrace(3)`, which reads the unwind
// tables, took three and a half microseconds, more than half the run of a small program. The walk
// reads only the calling thread's own stack, so a frame that keeps no frame pointer ends it early
// (the task is then named by its kind), never with a read of memory that is not there.

/// Where an unstructured task was created: the return addresses on the creating thread's stack
/// when the runtime handed the scheduler the task's first job, worked out into a place in the
/// program when a report first asks (see ``TaskInfo/origin``).
package final class TaskCreation: Sendable {
  /// The return addresses, innermost first.
  let returnAddresses: [UInt]

  init(returnAddresses: [UInt]) {
    self.returnAddresses = returnAddresses
  }

  /// `Task at SearchModel.swift:14`, or `Task in SearchModel.search()` where the program has no
  /// line information; `nil` when no frame of the program's own is found.
  var label: String? { TaskCreationSymbols.label(of: returnAddresses) }

  /// How many frames are recorded: the creating code lies about a dozen frames below the
  /// scheduler's code that records them (the scheduler's enqueue, the runtime's enqueue and task
  /// creation, `Task.init`, and `Task.effect` and the scheduler's spawn where they made the task).
  static let depth = 24

  /// The return addresses on the calling thread's stack, or `nil` where they cannot be read, or
  /// reports could not work them out (``RuntimeMechanism/taskCreationSites``).
  static func capture() -> TaskCreation? {
    RuntimeCapabilities.current.isOn(.taskCreationSites) ? walkStack() : nil
  }

  /// ``capture()``, whether or not its probe verified it: for that probe.
  @inline(never)
  static func walkStack() -> TaskCreation? {
    #if canImport(Runtime) && os(Linux) && _pointerBitWidth(_64)
      let stack = VisibleLocks.stackOfCallingThread()
      // A frame record is the caller's frame pointer, then the return address into the caller.
      var frame = UInt(HostContext.withCurrentContext { $0.framePointer })
      var returnAddresses: [UInt] = []
      returnAddresses.reserveCapacity(depth)
      while returnAddresses.count < depth, frame % 8 == 0, stack.contains(frame), stack.contains(frame + 15) {
        let record = UnsafePointer<UInt>(bitPattern: frame)!
        let (caller, returnAddress) = (record[0], record[1])
        guard returnAddress != 0 else { break }
        returnAddresses.append(returnAddress)
        // The stack grows down: a caller's frame lies above its callee's.
        guard caller > frame else { break }
        frame = caller
      }
      return returnAddresses.isEmpty ? nil : TaskCreation(returnAddresses: returnAddresses)
    #else
      return nil
    #endif
  }
}

extension TaskCreation {
  /// Probes ``RuntimeMechanism/taskCreationSites``: a walk from here must find, as the first
  /// frame's return address, an address in this function's own image, then more frames above it.
  @inline(never)
  static func probe() -> MechanismStatus {
    #if canImport(Runtime) && os(Linux) && _pointerBitWidth(_64)
      guard let frames = walkStack()?.returnAddresses, frames.count >= 2 else {
        return .failedProbe("the walk of this thread's frames found fewer than two")
      }
      let here = unsafeBitCast(imageMarker, to: UnsafeRawPointer.self)
      guard let image = loadedImageBase(containing: here), let first = UnsafeRawPointer(bitPattern: frames[0]),
        loadedImageBase(containing: first) == image
      else { return .failedProbe("the first frame's return address is not in the probe's own image") }
      return .verified
    #elseif os(Linux) && _pointerBitWidth(_64)
      return .unavailable("the toolchain has no Runtime module to read the thread's registers")
    #else
      return .unavailable("frames are walked on 64-bit Linux only")
    #endif
  }

  #if canImport(Runtime) && os(Linux) && _pointerBitWidth(_64)
    /// A function of this library's image, whose address tells the image.
    private static let imageMarker: @convention(c) () -> Void = {}
  #endif
}
