#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// Entry points of the Swift concurrency runtime that the public API does not surface. Each is
// exported by libswift_Concurrency on every platform and takes the job (for a task, the task
// itself) as its only argument.

/// The runtime's unique id of the task a job belongs to; `0` for a job that is not a task.
/// Unlike the job's address, it is never reused by a later task.
@_silgen_name("swift_task_getJobTaskId")
func runtimeTaskID(_ job: UnownedJob) -> UInt64

/// The runtime id of the task at `address`, or of whatever task now lives there.
func runtimeTaskID(at address: UInt) -> UInt64 {
  runtimeTaskID(unsafeBitCast(UnsafeRawPointer(bitPattern: address)!, to: UnownedJob.self))
}

@_silgen_name("swift_task_getJobFlags")
private func runtimeJobFlags(_ job: UnownedJob) -> UInt32

/// `swift_task_isCancelled` and `swift_task_getCurrent`, looked up at run time: the standard
/// library already declares those symbols with types this module cannot name. Their arguments and
/// results travel in the same registers under the Swift and C calling conventions.
private let runtimeIsCancelled: (@convention(c) (UnsafeRawPointer) -> Bool)? = runtimeFunction("swift_task_isCancelled")
private let runtimeCurrentTask: (@convention(c) () -> UnsafeRawPointer?)? = runtimeFunction("swift_task_getCurrent")

/// The function of the process named `name`, as a C function of type `Function`, if any library
/// exports it.
func runtimeFunction<Function>(_ name: String) -> Function? {
  guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, name) else { return nil }
  return unsafeBitCast(symbol, to: Function.self)
}

/// What the runtime's job flags say about a job.
struct JobFlags {
  let rawValue: UInt32

  init(_ job: UnownedJob) { rawValue = runtimeJobFlags(job) }

  /// The low byte is the job kind; kind 0 is a task, higher kinds are actor and runtime jobs.
  var isTask: Bool { rawValue & 0xFF == 0 }
  /// A nullary-continuation job (kind 0xC3): a trampoline the runtime enqueues to resume a
  /// suspended task, for example after `Task.yield()`. Running it only makes the task ready.
  var isContinuationTrampoline: Bool { rawValue & 0xFF == 0xC3 }
  var isAsyncLetChild: Bool { rawValue & (1 << 28) != 0 }
  var isGroupChild: Bool { rawValue & (1 << 26) != 0 }
}

/// The address of the default actor whose queue `job` drains, for the runtime's job for a default
/// actor (kind 0xC1), which keeps the actor in the word after the job's 64-byte header; `nil` for
/// any other job, and where that word is not verified to hold it (``RuntimeMechanism/actorJobs``).
/// Other kinds, such as a job kept inside the actor object, are not read.
func defaultActorAddress(ofJob job: UnownedJob) -> UInt? {
  guard RuntimeCapabilities.current.isOn(.actorJobs) else { return nil }
  return readDefaultActorAddress(ofJob: job)
}

/// ``defaultActorAddress(ofJob:)``, whether or not its probe verified it: for that probe. Nothing
/// is read on a 32-bit platform, whose header differs.
func readDefaultActorAddress(ofJob job: UnownedJob) -> UInt? {
  #if _pointerBitWidth(_64)
    guard JobFlags(job).rawValue & 0xFF == 0xC1 else { return nil }
    let actor = unsafeBitCast(job, to: UnsafeRawPointer.self).load(fromByteOffset: 64, as: UInt.self)
    return actor == 0 ? nil : actor
  #else
    return nil
  #endif
}

/// Reads what the runtime knows about tasks through entry points looked up once, and kept by each
/// scheduler so that a step neither goes through a lazily made global's check nor through
/// `withUnsafeCurrentTask`, which retains the task and is not specialized: reading the current
/// task that way took about 2.5% of a one-thread exploration of 3 × 3 (`Benchmarks explore`).
struct TaskReader {
  private let isCancelled = runtimeIsCancelled
  private let currentTask = runtimeCurrentTask

  /// Whether the task that `job` runs has been cancelled. `job` must be a task's job.
  func isCancelled(_ job: UnownedJob) -> Bool {
    isCancelled?(unsafeBitCast(job, to: UnsafeRawPointer.self)) ?? false
  }

  /// Whether the task at `address` has been cancelled.
  func isCancelled(taskAt address: UInt) -> Bool {
    isCancelled?(UnsafeRawPointer(bitPattern: address)!) ?? false
  }

  /// The task running on this thread, as the address of its job, or `nil` between tasks.
  func currentTaskAddress() -> UnsafeRawPointer? {
    guard let currentTask else {
      return withUnsafeCurrentTask { task in task.map { unsafeBitCast($0, to: UnsafeRawPointer.self) } }
    }
    return currentTask()
  }

  /// The runtime id of the task running on this thread, if any.
  func currentRuntimeTaskID() -> UInt64? {
    // A task is its own job.
    currentTaskAddress().map { runtimeTaskID(unsafeBitCast($0, to: UnownedJob.self)) }
  }
}

/// The name of the task running on this thread, where the platform exposes it.
func currentTaskName() -> String? {
  if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
    return Task.name
  }
  return nil
}
