#if canImport(Glibc)
  import Glibc
#endif

// What a suspended task waits on, read from the concurrency runtime's own record of it.
//
// Before a task suspends on another task, on a continuation or on a task group, or while it is
// enqueued on an actor, the runtime gives it a dependency record, for priority escalation: the
// task's private storage points to it, and the record's third word says what the task depends on
// (the other task, the continuation's context, the group, or the actor). Nothing in the public
// API exposes it, so it is read at fixed offsets, and only where the runtime says its layout is
// the one checked here: 64-bit Linux, debugger layout version 1, no priority escalation, tasks of
// 208 bytes (Swift 6.3.1), and once its probe has read a task suspended on a continuation and
// one awaiting another as such (`RuntimeMechanism.taskWaits`). Everything read is checked
// before it is trusted: each address must be mapped (`mincore`), the task must still be a task
// with the expected id, suspended, with a dependency, and what it depends on is only ever
// compared with addresses the scheduler knows, never followed. Anywhere else, or when a check
// fails, the reader says it does not know, and the report falls back on what the scheduler saw. It runs when a run is stuck, and, in reduced
// searches, when an actor's job begins (see QueuedActorWork.swift).

/// What a suspended task waits on, as the runtime records it: addresses to compare with those of
/// the run's tasks and actors.
enum TaskWait: Equatable {
  /// Another task, at this address.
  case task(address: UInt)
  /// A continuation of its own, which whoever holds it has to resume; the function it resumes
  /// tells an AsyncStream's wait from others (see `StreamWaits`).
  case continuation(resumeFunction: UInt)
  /// To run on an executor, such as the actor at this address.
  case executor(address: UInt)
}

enum TaskWaitReader {
  /// How many bytes from a task's address the reader reads: up to the pointer to its dependency
  /// record, the last field it reads there.
  static let taskBytesRead = 168

  #if os(Linux) && _pointerBitWidth(_64)
    /// The offsets of the fields read, within a task and within its dependency record.
    private static let resumeContextOffset = 64
    private static let statusFlagsOffset = 96
    private static let dependencyRecordOffset = 160
    private static let dependentOnOffset = 16
    private static let dependencyKindOffset = 32
    /// `ActiveTaskStatus` flags: the task depends on something, runs, has completed.
    private static let hasTaskDependency: UInt32 = 0x4000
    private static let runningOrComplete: UInt32 = 0x800 | 0x2000
    /// The dependency kinds: on a task, on a continuation, on a group, enqueued on an executor.
    private static let waitingOnTask: UInt32 = 1
    private static let waitingOnContinuation: UInt32 = 2
    private static let enqueuedOnExecutor: UInt32 = 4

    /// The task metadata, when the runtime's layout is the one this reader knows.
    private static let taskMetadata: UInt? = {
      guard let handle = dlopen(nil, RTLD_NOW),
        let version = dlsym(handle, "_swift_concurrency_debug_internal_layout_version"),
        let escalation = dlsym(handle, "_swift_concurrency_debug_supportsPriorityEscalation"),
        let size = dlsym(handle, "_swift_concurrency_debug_asyncTaskSize"),
        let metadata = dlsym(handle, "_swift_concurrency_debug_asyncTaskMetadata")
      else { return nil }
      guard version.load(as: UInt32.self) == 1, !escalation.load(as: Bool.self), size.load(as: UInt.self) == 208
      else { return nil }
      return metadata.load(as: UInt.self)
    }()
  #endif

  /// Whether the runtime's records can be read here: its probe verified them
  /// (``RuntimeMechanism/taskWaits``). Elsewhere ``wait(ofTaskAt:runtimeID:)`` always says it
  /// does not know.
  static var readsRecords: Bool { RuntimeCapabilities.current.isOn(.taskWaits) }

  /// Whether the runtime's debug symbols describe the task layout this reader knows: what its
  /// probe checks first.
  static var layoutIsKnown: Bool {
    #if os(Linux) && _pointerBitWidth(_64)
      taskMetadata != nil
    #else
      false
    #endif
  }

  /// What the suspended task at `address`, whose runtime id is `runtimeID`, waits on, or `nil`
  /// when the runtime's record cannot be read or says something else (a task group, say).
  static func wait(ofTaskAt address: UInt, runtimeID: UInt64) -> TaskWait? {
    var pages = MappedPages()
    return wait(ofTaskAt: address, runtimeID: runtimeID, pages: &pages)
  }

  /// ``wait(ofTaskAt:runtimeID:)``, for one of several tasks read while nothing runs: the pages
  /// found mapped for one are not checked again for the next.
  static func wait(ofTaskAt address: UInt, runtimeID: UInt64, pages: inout MappedPages) -> TaskWait? {
    readsRecords ? readWait(ofTaskAt: address, runtimeID: runtimeID, pages: &pages) : nil
  }

  /// ``wait(ofTaskAt:runtimeID:)``, whether or not its probe verified the records: for that probe.
  static func readWait(ofTaskAt address: UInt, runtimeID: UInt64) -> TaskWait? {
    var pages = MappedPages()
    return readWait(ofTaskAt: address, runtimeID: runtimeID, pages: &pages)
  }

  private static func readWait(ofTaskAt address: UInt, runtimeID: UInt64, pages: inout MappedPages) -> TaskWait? {
    #if os(Linux) && _pointerBitWidth(_64)
      guard let task = task(at: address, pages: &pages), runtimeTaskID(unsafeBitCast(task, to: UnownedJob.self)) == runtimeID
      else { return nil }
      let flags = task.load(fromByteOffset: statusFlagsOffset, as: UInt32.self)
      guard flags & hasTaskDependency != 0, flags & runningOrComplete == 0,
        let record = pages.readable(task.load(fromByteOffset: dependencyRecordOffset, as: UInt.self), count: dependencyKindOffset + 4)
      else { return nil }
      let dependentOn = record.load(fromByteOffset: dependentOnOffset, as: UInt.self)
      switch record.load(fromByteOffset: dependencyKindOffset, as: UInt32.self) {
      case waitingOnTask: return .task(address: dependentOn)
      case waitingOnContinuation:
        // The runtime records the task's own context, which begins with the context it returns
        // to and the function that resumes it; anything else means the layout is not what it seems.
        guard dependentOn == task.load(fromByteOffset: resumeContextOffset, as: UInt.self),
          let context = pages.readable(dependentOn, count: 16)
        else { return nil }
        return .continuation(resumeFunction: context.load(fromByteOffset: 8, as: UInt.self))
      case enqueuedOnExecutor: return .executor(address: dependentOn)
      default: return nil
      }
    #else
      return nil
    #endif
  }

  /// The runtime id of the live task at `address`, such as one a ``TaskWait/task(address:)``
  /// names, or `nil` when no task can be read there: an address alone may be an earlier task's,
  /// its memory since reused.
  static func runtimeID(ofTaskAt address: UInt) -> UInt64? {
    #if os(Linux) && _pointerBitWidth(_64)
      guard readsRecords else { return nil }
      return task(at: address).map { runtimeTaskID(unsafeBitCast($0, to: UnownedJob.self)) }
    #else
      nil
    #endif
  }

  #if os(Linux) && _pointerBitWidth(_64)
    /// `address` as a pointer, if a task the runtime's layout describes can be read there.
    private static func task(at address: UInt, pages: inout MappedPages) -> UnsafeRawPointer? {
      guard let taskMetadata, let task = pages.readable(address, count: taskBytesRead),
        task.load(as: UInt.self) == taskMetadata
      else { return nil }
      return task
    }

    private static func task(at address: UInt) -> UnsafeRawPointer? {
      var pages = MappedPages()
      return task(at: address, pages: &pages)
    }
  #endif

  /// Pages found mapped (`mincore`) while nothing that could unmap them ran: a check of a few
  /// tasks that share pages asks the kernel once a page. Make a new one for each such moment.
  struct MappedPages {
    private var pages: [UInt] = []
    /// A run of pages found mapped at once, first page to last page's start, if any.
    private var span: ClosedRange<UInt>?
    #if os(Linux) && _pointerBitWidth(_64)
      private static let pageSize = UInt(sysconf(Int32(_SC_PAGESIZE)))
    #endif

    init() {}

    /// Checks at once the pages from the lowest of `addresses` to `count` bytes past the
    /// highest, when they are at most 1,024 pages: tasks allocated near one another then cost
    /// one `mincore` a look rather than one a page. Where some page between is unmapped, or
    /// they are far apart, each page is checked on its own as before.
    mutating func checkTogether(_ addresses: some Sequence<UInt>, count: Int) {
      #if os(Linux) && _pointerBitWidth(_64)
        var lowest = UInt.max
        var highest = UInt.min
        for address in addresses where address != 0 {
          lowest = min(lowest, address)
          highest = max(highest, address)
        }
        guard lowest <= highest else { return }
        let pageSize = Self.pageSize
        let first = lowest & ~(pageSize - 1)
        let last = (highest + UInt(count) - 1) & ~(pageSize - 1)
        let pageCount = Int((last - first) / pageSize) + 1
        guard pageCount <= 1_024 else { return }
        let mapped = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: pageCount) { residency in
          mincore(UnsafeMutableRawPointer(bitPattern: first), Int(pageSize) * pageCount, residency.baseAddress) == 0
        }
        if mapped { span = first...last }
      #endif
    }

    /// `address` as a pointer, if the `count` bytes from it are mapped, so reading them cannot
    /// fault whatever they hold.
    mutating func readable(_ address: UInt, count: Int) -> UnsafeRawPointer? {
      #if os(Linux) && _pointerBitWidth(_64)
        guard address != 0, address % 8 == 0 else { return nil }
        let pageSize = Self.pageSize
        let first = address & ~(pageSize - 1)
        let last = (address + UInt(count) - 1) & ~(pageSize - 1)
        func known(_ page: UInt) -> Bool { span?.contains(page) == true || pages.contains(page) }
        if known(first) && known(last) { return UnsafeRawPointer(bitPattern: address) }
        let count = Int((last - first) / pageSize) + 1
        let mapped = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { residency in
          mincore(UnsafeMutableRawPointer(bitPattern: first), Int(pageSize) * count, residency.baseAddress) == 0
        }
        guard mapped else { return nil }
        pages.append(first)
        if last != first { pages.append(last) }
        return UnsafeRawPointer(bitPattern: address)
      #else
        return nil
      #endif
    }
  }
}
