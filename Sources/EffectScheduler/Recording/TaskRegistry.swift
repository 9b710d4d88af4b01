/// The tasks one run has seen, keyed by the runtime's task id and numbered in creation order.
struct TaskRegistry {
  struct Record {
    var info: TaskInfo
    /// The task's address, for reading what a stuck task waits on (see `TaskWaitReader`). A
    /// task's job is the task itself.
    let address: UInt
    var segments = 0
    var lastStep: Int?
    var nameResolved = false
    var completed = false
    var cancelled = false
    /// Whether the task has no executor preference, as a plain `Task {}` and its children: the
    /// runtime handed its jobs to the global executor, whose jobs the scheduler takes over.
    var prefersNoExecutor = false
    /// Whether the run holds the task until it ends, reading its completion from its status, and
    /// has given it the scheduler as its executor preference if it had none (see
    /// ExecutorAdoption.swift).
    var held = false
    /// What the task said it waits on before it suspended, for deadlock reports; described when
    /// one is made.
    var waitingOn: (() -> String)?
    /// The index in the trace of the event that ended the task's last job.
    var lastJobEnd: Int?
    /// The virtual time at which a timer fired early while the task was ready, or while the task
    /// that created it was, delaying it past the timer (see TimingAssumption.swift).
    var delayedAt: Duration?
    /// Whether the task was delayed past a timer fired early and no job of it has begun since.
    var delayedSinceLastJob = false
    /// Whether the task has read the clock or slept, so runs on time by its own account: a timer
    /// never fires early while it is ready (see TimingAssumption.swift).
    var keepsTime = false
    /// How many jobs of the task's wait in the queue: ready, held back or waiting for the main
    /// actor (see ``ReadyQueue/timedJobs``).
    var queuedJobs = 0
  }

  private(set) var records: [Record] = []
  /// The addresses of `records`, in the same order, kept together: while a run has few tasks, a
  /// lock taken is checked against every task's status lock (see VisibleLocks.swift), many times
  /// a step, faster than it is looked up.
  private(set) var addresses: [UInt] = []
  /// The latest task registered at each address, for the lookups of runs with many tasks: a
  /// task's memory may be a later task's once it completes.
  private var latestAtAddress: [UInt: Int] = [:]
  /// Whether every task's address is a multiple of ``addressAlignment``, as the runtime allocates
  /// them: a status lock then has few candidate tasks to look up.
  private var addressesAligned = true
  static let addressAlignment: UInt = 16
  /// Up to how many tasks the lookups go through ``addresses`` in turn.
  private static let scannedTasks = 16

  /// The runtime ids of `records`, in the same order. The runtime numbers tasks in creation
  /// order and tasks register when created, so this is almost always sorted and searched by
  /// bisection; `indexByRuntimeID` takes over once a task registers out of order.
  private var runtimeIDs: [UInt64] = []
  private var indexByRuntimeID: [UInt64: Int]?
  /// The tasks whose cancelled flag the cancellation watch may still find set, in the order they
  /// registered: every task, until it is found cancelled, or completed and not held (see
  /// CancellationWatch.swift).
  private(set) var watchedForCancellation: [TaskID] = []

  subscript(id: TaskID) -> Record {
    // In place, so reading or updating one field does not copy the record and its strings.
    _read { yield records[id.rawValue] }
    _modify { yield &records[id.rawValue] }
  }

  /// The runtime id of a registered task.
  func runtimeID(of id: TaskID) -> UInt64 { runtimeIDs[id.rawValue] }

  func id(forRuntimeID runtimeID: UInt64) -> TaskID? {
    if let indexByRuntimeID { return indexByRuntimeID[runtimeID].map(TaskID.init(rawValue:)) }
    // The ids of a run's tasks most often follow one another, so the task is most often as far
    // from the first as its id is: looked up thousands of times a step where thousands of tasks
    // wait on one actor (``DeterministicScheduler/queuedTasks(onActorAt:besides:)``), the search
    // that settles it otherwise was most of the run's time.
    if let first = runtimeIDs.first, runtimeID >= first, runtimeID - first < UInt64(runtimeIDs.count),
      runtimeIDs[Int(runtimeID - first)] == runtimeID
    {
      return TaskID(Int(runtimeID - first))
    }
    let index = runtimeIDs.lowerBound(of: runtimeID)
    return index < runtimeIDs.count && runtimeIDs[index] == runtimeID ? TaskID(index) : nil
  }

  /// Registers a task the first time one of its jobs is seen, which is when it is created.
  mutating func register(_ job: UnownedJob, runtimeID: UInt64, flags: JobFlags, parent: TaskID?) -> TaskID {
    let id = TaskID(records.count)
    let kind: TaskInfo.Kind =
      records.isEmpty ? .root
      : flags.isAsyncLetChild ? .asyncLet
      : flags.isGroupChild ? .groupChild
      : .unstructured
    let address = UInt(bitPattern: unsafeBitCast(job, to: UnsafeRawPointer.self))
    records.append(Record(info: TaskInfo(id: id, name: nil, parent: parent, kind: kind), address: address))
    addresses.append(address)
    latestAtAddress[address] = id.rawValue
    if address % Self.addressAlignment != 0 { addressesAligned = false }
    watchedForCancellation.append(id)
    if indexByRuntimeID == nil, let last = runtimeIDs.last, last > runtimeID {
      indexByRuntimeID = Dictionary(uniqueKeysWithValues: zip(runtimeIDs, runtimeIDs.indices))
    }
    runtimeIDs.append(runtimeID)
    indexByRuntimeID?[runtimeID] = id.rawValue
    return id
  }

  /// The task registered last at `address`, if any.
  func latestTask(at address: UInt) -> TaskID? {
    if addresses.count <= Self.scannedTasks { return addresses.lastIndex(of: address).map(TaskID.init(rawValue:)) }
    return latestAtAddress[address].map(TaskID.init(rawValue:))
  }

  /// Whether a lock at `lock` lies `offsets` bytes into any task registered: a task's status
  /// lock, say.
  func anyTask(holding lock: UInt, at offsets: Range<UInt>) -> Bool {
    func holds(_ task: UInt) -> Bool { lock >= task && offsets.contains(lock - task) }
    guard addresses.count > Self.scannedTasks, addressesAligned else {
      return addresses.withUnsafeBufferPointer { tasks in tasks.contains(where: holds) }
    }
    // The few aligned addresses whose task would hold the lock there, highest first.
    guard lock >= offsets.lowerBound else { return false }
    var candidate = lock - offsets.lowerBound
    candidate -= candidate % Self.addressAlignment
    while holds(candidate) {
      if latestAtAddress[candidate] != nil { return true }
      guard candidate >= Self.addressAlignment else { break }
      candidate -= Self.addressAlignment
    }
    return false
  }

  /// Marks cancelled each task watched for cancellation whose flag is now set, and returns them in
  /// the order watched (`nil` for none, almost always); stops watching those found cancelled
  /// before, those completed and not held, and those completed that only the run's hold keeps
  /// alive (`onlyHeld`, given the address of a held task): nothing is left that could cancel
  /// them, so a run that starts and awaits thousands of tasks does not read them all each step.
  /// `isCancelled` reads the flag of the task at an address, and `runtimeID` the runtime id of
  /// the task there, which confirms that the memory is still the task's where the run does not
  /// hold it.
  ///
  /// Here rather than in the scheduler's code: it reads every watched record each step, which
  /// through the subscript from another file, not inlined in a debug build, cost a call and an
  /// allocation a read. The list is kept in one pass, in its order: removing the tasks one at a
  /// time moved every task after each.
  mutating func markNewlyCancelled(
    isCancelled: (UInt) -> Bool, runtimeID: (UInt) -> UInt64, onlyHeld: (UInt) -> Bool
  ) -> [TaskID]? {
    var found: [TaskID]?
    var kept = 0
    for index in watchedForCancellation.indices {
      let id = watchedForCancellation[index]
      let record = id.rawValue
      guard !records[record].cancelled, !records[record].completed || records[record].held else { continue }
      // The flag first, as it is almost never set: the id is read only to confirm it.
      let address = records[record].address
      guard isCancelled(address), records[record].held || runtimeID(address) == runtimeIDs[record] else {
        // Read after the flag: a handle let go after a cancel leaves the cancel to be recorded.
        if !records[record].completed || !onlyHeld(address) {
          watchedForCancellation[kept] = id
          kept += 1
        }
        continue
      }
      records[record].cancelled = true
      found = (found ?? []) + [id]
    }
    watchedForCancellation.removeSubrange(kept...)
    return found
  }

  mutating func removeAll() {
    records.removeAll(keepingCapacity: true)
    addresses.removeAll(keepingCapacity: true)
    latestAtAddress.removeAll(keepingCapacity: true)
    addressesAligned = true
    watchedForCancellation.removeAll(keepingCapacity: true)
    runtimeIDs.removeAll(keepingCapacity: true)
    indexByRuntimeID = nil
  }
}
