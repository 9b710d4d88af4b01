#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import Synchronization

// Why a plain task is given the scheduler as its executor preference.
//
// A task without an executor preference (a plain `Task {}`, `Task.detached {}`) is run by an
// actor's job with no task executor at all, and the runtime then lets that job's thread carry the
// task on to any idle actor, and off actors, without enqueuing anything: several hops within one
// step, where a real runtime, whose other threads run meanwhile, lets other tasks run between
// them. A task that prefers the scheduler hops through the scheduler every time, as a
// `Task.effect` task does. So when a run first sees a task of its own without a preference, it
// gives it one, as `withTaskExecutorPreference` would from inside: the runtime's record of a
// preference, pushed on the task's list of status records with the flag that says it is there.
// From then on the task, its `async let` and group children (which inherit it) and the actors
// they call are scheduled exactly like `Task.effect` tasks.
//
// The public API can push a preference only on the current task, so the record is written at
// fixed offsets, and only where the layout is the one checked here: 64-bit Linux with the layout
// `TaskWaitReader` checks, once the probe of `RuntimeMechanism.executorAdoption` has found a
// task made with a preference carrying its record where this code looks, and a root task, made
// with a preference, found to carry its record there too (checked at the start of every run). The task is not running when its
// record is pushed: the scheduler holds its first job. Other threads may still cancel it or raise
// its priority, so the status is changed with a double-word compare-and-swap, as the runtime does,
// and never while the runtime holds the task's record lock. The task is retained until the run
// ends, when the record is taken off again if the task has completed; the record of a task still
// unfinished stays, with the scheduler it names. Elsewhere nothing is written, and plain tasks are
// taken over through the global executor as before.

/// An unstructured task of the run, which the run keeps alive until it ends so that it can read
/// from the task's status whether it has completed.
struct HeldTask {
  /// The task; a task is its own job.
  let address: UnsafeMutableRawPointer
  /// The preference record the run pushed on its status, if it had no preference of its own.
  let record: UnsafeMutableRawPointer?
  let id: TaskID
}

/// Reads and writes the runtime's record of a task's status, to adopt plain tasks and see them complete.
enum ExecutorAdoption {
  #if os(Linux) && _pointerBitWidth(_64) && (arch(x86_64) || arch(arm64))
    /// The task's `ActiveTaskStatus`: 32 bits of flags, 32 of the task's id, then the innermost
    /// status record.
    private static let statusOffset = 96
    private static let hasPreference: UInt = 0x8000
    private static let recordLocked: UInt = 0x200
    private static let complete: UInt = 0x2000
    /// A status record: its kind in the low byte of the first word, the next record out, then,
    /// for a preference, a byte of flags (bit 0: the executor is retained) and the executor.
    private static let preferenceKind: UInt = 5
    private static let recordSize = 40
    /// The job header's function that resumes the task.
    private static let resumeFunctionOffset = 56

    /// Where the concurrency runtime's library has its code, read from `/proc/self/maps`.
    private static let concurrencyLibraryCode: [Range<UInt>] = {
      guard let file = fopen("/proc/self/maps", "r") else { return [] }
      defer { fclose(file) }
      var ranges: [Range<UInt>] = []
      var line = [CChar](repeating: 0, count: 4096)
      while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let fields = text.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 6, fields[1].contains("x"), fields[5].contains("libswift_Concurrency") else { continue }
        let bounds = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
        if bounds.count == 2, bounds[0] < bounds[1] { ranges.append(bounds[0]..<bounds[1]) }
      }
      return ranges
    }()
  #endif

  /// Whether plain tasks can be adopted in a run whose root task is `root`, which the scheduler
  /// made with itself as the preference: the mechanism's probe verified it
  /// (``RuntimeMechanism/executorAdoption``) and the root carries its record where this code looks.
  static func canAdopt(root job: UnownedJob, executor: UnownedTaskExecutor) -> Bool {
    guard RuntimeCapabilities.current.isOn(.executorAdoption) else { return false }
    return carriesPreference(taskAt: UInt(bitPattern: unsafeBitCast(job, to: UnsafeRawPointer.self)), executor: executor)
  }

  /// Whether the task at `address` has `executor` as its innermost preference record, below such
  /// records as the one that says the task is enqueued or has a cancellation handler.
  static func carriesPreference(taskAt address: UInt, executor: UnownedTaskExecutor) -> Bool {
    #if os(Linux) && _pointerBitWidth(_64) && (arch(x86_64) || arch(arm64))
      let status = status(of: UnsafeMutableRawPointer(bitPattern: address)!).pointee.load(ordering: .acquiring)
      guard status.first & hasPreference != 0 else { return false }
      let reference = unsafeBitCast(executor, to: (UInt, UInt).self)
      var next = UnsafeRawPointer(bitPattern: status.second)
      var read = 0
      while let record = next, read < 64 {
        if record.load(as: UInt.self) & 0xFF == preferenceKind {
          return record.load(fromByteOffset: 24, as: UInt.self) == reference.0
            && record.load(fromByteOffset: 32, as: UInt.self) == reference.1
        }
        next = UnsafeRawPointer(bitPattern: record.load(fromByteOffset: 8, as: UInt.self))
        read += 1
      }
      return false
    #else
      return false
    #endif
  }

  /// Holds the unstructured task whose job is `job`, not running, and gives it `executor` as its
  /// preference unless it has one already; `nil` if it has completed.
  static func hold(_ job: UnownedJob, id: TaskID, executor: UnownedTaskExecutor) -> HeldTask? {
    #if os(Linux) && _pointerBitWidth(_64) && (arch(x86_64) || arch(arm64))
      let task = address(of: job)
      let word = status(of: task)
      var current = word.pointee.load(ordering: .acquiring)
      guard current.first & complete == 0 else { return nil }
      guard current.first & hasPreference == 0 else {
        _ = Unmanaged<AnyObject>.fromOpaque(task).retain()
        return HeldTask(address: task, record: nil, id: id)
      }
      let record = UnsafeMutableRawPointer.allocate(byteCount: recordSize, alignment: 16)
      let reference = unsafeBitCast(executor, to: (UInt, UInt).self)
      record.storeBytes(of: preferenceKind, as: UInt.self)
      record.storeBytes(of: 0, toByteOffset: 16, as: UInt.self)
      record.storeBytes(of: reference.0, toByteOffset: 24, as: UInt.self)
      record.storeBytes(of: reference.1, toByteOffset: 32, as: UInt.self)
      while true {
        if current.first & recordLocked != 0 {
          sched_yield()
          current = word.pointee.load(ordering: .acquiring)
          continue
        }
        guard current.first & (hasPreference | complete) == 0 else {
          record.deallocate()
          return nil
        }
        record.storeBytes(of: current.second, toByteOffset: 8, as: UInt.self)
        let desired = WordPair(first: current.first | hasPreference, second: UInt(bitPattern: record))
        let (exchanged, original) = word.pointee.compareExchange(expected: current, desired: desired, ordering: .acquiringAndReleasing)
        if exchanged { break }
        current = original
      }
      _ = Unmanaged<AnyObject>.fromOpaque(task).retain()
      return HeldTask(address: task, record: record, id: id)
    #else
      return nil
    #endif
  }

  /// Whether the held task at `address` has completed.
  static func hasCompleted(taskAt address: UInt) -> Bool {
    #if os(Linux) && _pointerBitWidth(_64) && (arch(x86_64) || arch(arm64))
      status(of: UnsafeMutableRawPointer(bitPattern: address)!).pointee.load(ordering: .acquiring).first & complete != 0
    #else
      false
    #endif
  }

  /// Whether the held task at `address` has no reference but the run's hold: no handle to it is
  /// left, nor does the runtime keep it for a waiter, so nothing can cancel it any more. Strong
  /// references only: a task is never referred to weakly or unowned.
  static func isReferencedOnlyByItsHold(taskAt address: UInt) -> Bool {
    guard let retainCount, let task = UnsafeRawPointer(bitPattern: address) else { return false }
    return retainCount(task) == 1
  }

  /// `swift_retainCount`, looked up at run time: the strong references to a heap object.
  private static let retainCount: (@convention(c) (UnsafeRawPointer) -> Int)? = runtimeFunction("swift_retainCount")

  /// Whether the task at `address`, not running, will resume into the concurrency runtime itself,
  /// as a task woken from a wait for another task does, rather than into compiled code.
  static func resumesInRuntime(taskAt address: UInt) -> Bool {
    #if os(Linux) && _pointerBitWidth(_64) && (arch(x86_64) || arch(arm64))
      guard RuntimeCapabilities.current.isOn(.executorAdoption) else { return false }
      let resume = UnsafeRawPointer(bitPattern: address)!.load(fromByteOffset: resumeFunctionOffset, as: UInt.self)
      return concurrencyLibraryCode.contains { $0.contains(resume) }
    #else
      return false
    #endif
  }

  /// Ends the run's hold on a task: the record of a completed task is taken off and freed; an
  /// unfinished task keeps it, and returns `false`, for whoever resumes it later still finds the
  /// scheduler through it.
  static func release(_ task: HeldTask) -> Bool {
    #if os(Linux) && _pointerBitWidth(_64) && (arch(x86_64) || arch(arm64))
      defer { Unmanaged<AnyObject>.fromOpaque(task.address).release() }
      guard let record = task.record else { return true }
      let word = status(of: task.address)
      var current = word.pointee.load(ordering: .acquiring)
      while true {
        guard current.first & complete != 0 else { return false }
        if current.first & recordLocked != 0 {
          sched_yield()
          current = word.pointee.load(ordering: .acquiring)
          continue
        }
        // A completed task has dropped every record of its own, so the scheduler's is innermost;
        // should it not be, the record stays, harmlessly, rather than be unlinked from the middle.
        guard current.second == UInt(bitPattern: record) else { return true }
        let parent = record.load(fromByteOffset: 8, as: UInt.self)
        let flags = parent == 0 ? current.first & ~hasPreference : current.first
        let (exchanged, original) = word.pointee.compareExchange(
          expected: current, desired: WordPair(first: flags, second: parent), ordering: .acquiringAndReleasing)
        if exchanged {
          record.deallocate()
          return true
        }
        current = original
      }
    #else
      return true
    #endif
  }

  #if os(Linux) && _pointerBitWidth(_64) && (arch(x86_64) || arch(arm64))
    private static func address(of job: UnownedJob) -> UnsafeMutableRawPointer {
      unsafeBitCast(job, to: UnsafeMutableRawPointer.self)
    }

    /// The task's status, which the runtime changes only atomically, both words at once.
    private static func status(of task: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Atomic<WordPair>> {
      (task + statusOffset).assumingMemoryBound(to: Atomic<WordPair>.self)
    }
  #endif
}

extension DeterministicScheduler {
  /// Holds an unstructured task the run has just registered, giving it the scheduler as its
  /// executor preference if it has none, when the run can and the task is the program's.
  func holdIfNeeded(_ job: UnownedJob, id: TaskID, runtimeID: UInt64) {
    guard tasks.readsTaskStatus, runtimeID > tasks.rootRuntimeID, tasks.registry[id].info.kind == .unstructured,
      let held = ExecutorAdoption.hold(job, id: id, executor: executor)
    else { return }
    tasks.heldTasks.append(held)
    tasks.heldTasksRunning.append(id)
    tasks.registry[id].held = true
  }

  /// Records the completion of every held task that completed during an actor's job: the job may
  /// have run several to their end. Returns whether it recorded any. Only the tasks not known to
  /// have completed are looked at, in the order they were held, and those known now leave the
  /// list: a run of thousands of tasks does not read them all at each actor's job.
  @discardableResult
  func recordHeldTasksCompleted() -> Bool {
    var recorded = false
    var kept = 0
    for index in tasks.heldTasksRunning.indices {
      let id = tasks.heldTasksRunning[index]
      guard !tasks.registry[id].completed else { continue }
      if ExecutorAdoption.hasCompleted(taskAt: tasks.registry[id].address) {
        tasks.registry[id].completed = true
        record(id, .completed)
        recorded = true
        continue
      }
      tasks.heldTasksRunning[kept] = id
      kept += 1
    }
    tasks.heldTasksRunning.removeSubrange(kept...)
    return recorded
  }

  /// Retains a task-group child until the run ends. The run learns that a structured child has
  /// completed only once the root has, and until then reads its status, for a cancellation say;
  /// a child that completed would otherwise be freed once its group took its result, and its
  /// memory, reused by an allocation of another thread, could read as a cancelled task with the
  /// child's id. An `async let` child lives in its parent's memory, which only the parent's own
  /// jobs, run by this scheduler, reuse, so it is left as it is.
  func retainIfGroupChild(_ job: UnownedJob, id: TaskID) {
    guard tasks.registry[id].info.kind == .groupChild else { return }
    let task = unsafeBitCast(job, to: UnsafeRawPointer.self)
    _ = Unmanaged<AnyObject>.fromOpaque(task).retain()
    tasks.retainedGroupChildren.append(task)
  }

  /// Ends the run's hold on its tasks. Should one be unfinished with the scheduler's record, the
  /// record names this scheduler for as long as the task lives, so the scheduler is kept alive.
  func releaseHeldTasks() {
    tasks.heldTasksRunning.removeAll(keepingCapacity: true)
    guard !tasks.heldTasks.isEmpty else { return }
    var keptRecord = false
    for task in tasks.heldTasks where !ExecutorAdoption.release(task) { keptRecord = true }
    tasks.heldTasks.removeAll(keepingCapacity: true)
    if keptRecord { _ = Unmanaged.passRetained(self) }
  }

  /// Releases the task-group children ``retainIfGroupChild(_:id:)`` retained.
  func releaseGroupChildren() {
    for task in tasks.retainedGroupChildren { Unmanaged<AnyObject>.fromOpaque(task).release() }
    tasks.retainedGroupChildren.removeAll(keepingCapacity: true)
  }
}
