/// The default actors one run has seen, numbered in the order their first job ran, and what the
/// actor job under way has been seen doing.
///
/// An actor is known by the address of its object, which the runtime's job for it carries, and by
/// its dynamic type, as long as it lives: a weak reference tells an actor freed during the run
/// from another made at the same address, which is a new actor, so that whether memory was reused
/// never changes the trace.
struct RunActors {
  /// A weak reference to an actor, which tells whether it still lives without keeping it alive.
  private struct Liveness {
    weak var object: AnyObject?
  }

  /// The actors, as the trace lists them.
  private(set) var entries: [TraceActor] = []
  /// The address of each actor in `entries`, in the same order; 0 once it is known to be freed.
  private(set) var addresses: [UInt] = []
  /// Each actor of `entries`, weakly.
  private var liveness: [Liveness] = []
  /// While an actor's job runs, the tasks it has been seen running, the one it was scheduled for
  /// first.
  var runningJob: [TaskID]?
  /// While an actor's job runs, the actor's address.
  var runningAddress: UInt?
  /// While an actor's job runs, the tasks listed in it because they waited in the actor's queue
  /// as it began or went on, and those seen running in it.
  var listedFromQueue: [TaskID] = []
  var seenRunning: [TaskID] = []
  /// The tasks listed by the last read of an actor's queue, or by the read under way.
  var listed = TaskMarks()
  /// The tasks of ``listedFromQueue`` not seen running, while a paused job's list is cut down
  /// (``DeterministicScheduler/pauseDrainIfItGoesOn(address:)``).
  var listedNotSeen = TaskMarks()
  /// Whether the actor's job under way goes on after a hand-off (see
  /// ``DeterministicScheduler/pauseDrainIfItGoesOn(address:)``): the task it runs first is then not
  /// the one its ready job names, so the trace lists its tasks whatever their number.
  var wentOnAfterHandOff = false
  /// While an actor's job runs, the tasks that were queued on other actors when it began, with
  /// their actor's address: see ``DeterministicScheduler/keepWorkQueuedElsewhere(than:)``.
  var queuedElsewhere: [(task: TaskID, actor: UInt)] = []
  /// The tasks of each actor's job that ran more than the one it was scheduled for, by step.
  private(set) var jobTasks: [Int: [TaskID]] = [:]
  /// The steps whose actor job may have run more than its actor's work: see
  /// ``Trace/stepsBeyondTheirActor``.
  private(set) var stepsBeyondTheirActor: Set<Int> = []

  /// The index of the actor at `address`, adding it if it is new. A run has a handful of actors,
  /// so a linear search beats hashing.
  mutating func index(ofActorAt address: UInt) -> Int {
    let object = Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue()
    let entry = TraceActor(type: type(of: object))
    for index in addresses.indices where addresses[index] == address && entries[index] == entry {
      if liveness[index].object === object { return index }
      addresses[index] = 0
    }
    addresses.append(address)
    entries.append(entry)
    liveness.append(Liveness(object: object))
    return entries.count - 1
  }

  /// Ends the actor's job under way, which ran at `step`; `wentBeyond` says whether it may have
  /// run more than its actor's work.
  mutating func endJob(atStep step: Int, wentBeyond: Bool) -> [TaskID] {
    defer {
      runningJob = nil
      runningAddress = nil
      listedFromQueue = []
      seenRunning = []
      wentOnAfterHandOff = false
      queuedElsewhere = []
    }
    let tasks = runningJob ?? []
    if tasks.count > 1 || wentOnAfterHandOff { jobTasks[step] = tasks }
    if wentBeyond { stepsBeyondTheirActor.insert(step) }
    return tasks
  }

  mutating func removeAll() {
    runningJob = nil
    guard !entries.isEmpty else { return }
    entries.removeAll(keepingCapacity: true)
    addresses.removeAll(keepingCapacity: true)
    liveness.removeAll(keepingCapacity: true)
    jobTasks.removeAll(keepingCapacity: true)
    stepsBeyondTheirActor.removeAll(keepingCapacity: true)
  }
}

extension DeterministicScheduler {
  /// Records that an actor's job begins: which actor, and the task it was scheduled for. The tasks
  /// seen running on the actor during the job are added by ``noteWorkOnActor(admitting:)``.
  func beginActorJob(_ job: UnownedJob, _ info: ReadyJob) {
    let address = defaultActorAddress(ofJob: job)
    let actor = address.map { actors.index(ofActorAt: $0) }
    var tasks = info.scheduledBy.map { [$0] } ?? []
    if let address {
      // Read in every search, so that a task made isolated to the actor is known.
      let queued = queuedTasks(onActorAt: address, besides: tasks)
      if strategy?.listsQueuedActorWork == true {
        tasks += queued
        actors.listedFromQueue = queued
        keepWorkQueuedElsewhere(than: address)
      }
    }
    actors.runningJob = tasks
    actors.runningAddress = address
    recordActorJobBegins(actor: actor, scheduledBy: info.scheduledBy, fromOutside: info.arrivedFromOutside)
  }

  /// Records that a job of `actor` (its number in the trace) begins, or goes on after a pause.
  func recordActorJobBegins(actor: Int?, scheduledBy: TaskID?, fromOutside: Bool) {
    running.runningActor = actor
    append(RecordedEvent(step: step, task: nil, kind: .actorJob, fromOutside: fromOutside, scheduledBy: scheduledBy, actor: actor))
    foldIntoFingerprint(UInt64(truncatingIfNeeded: (actor ?? -1) + 1) | 1 << 62)
  }

  /// Ends the actor's job begun by ``beginActorJob(_:_:)``, folding the tasks it ran into the
  /// trace's fingerprint.
  func endActorJob() {
    // A task without an executor preference, run by an actor's job, takes the thread along when
    // it steps onto an idle actor or off actors, and runs on there within the job, unseen.
    let wentBeyond = actors.runningJob?.contains { tasks.registry[$0].prefersNoExecutor } ?? false
    if wentBeyond, strategy?.listsQueuedActorWork == true { noteQueuedWorkRunBeyondTheActor() }
    for task in actors.endJob(atStep: step, wentBeyond: wentBeyond).dropFirst() {
      foldIntoFingerprint(UInt64(truncatingIfNeeded: task.rawValue) | 1 << 61)
    }
  }

  /// Notes, while an actor's job runs, the task whose work it is running when a job is handed to
  /// the scheduler: the task running on the actor, or, when none is, the task whose job this is,
  /// which has just left the actor, unless it is the waiter of a task that has just completed on
  /// the actor (see ``wokenByCompletion(_:)``).
  func noteWorkOnActor(admitting task: TaskID?) {
    guard let tasks = actors.runningJob else { return }
    if let running = taskReader.currentRuntimeTaskID().flatMap(self.tasks.registry.id(forRuntimeID:)) {
      if !actors.seenRunning.contains(running) { actors.seenRunning.append(running) }
      if !tasks.contains(running) { actors.runningJob?.append(running) }
      return
    }
    guard let task, !tasks.contains(task), !wokenByCompletion(task) else { return }
    actors.runningJob?.append(task)
  }

  /// Whether `task`, handed over during an actor's job while no task runs, was woken by a
  /// completion on the actor rather than leaving it: it resumes into the runtime (its wait for a
  /// task, a group or an `async let`), not into code of its own, as a task that leaves an actor
  /// does. A task whose last child completes in a job of the actor the child ran on, the root of
  /// a group say, is no work of that actor: listed among the job's tasks, its step before would
  /// touch the actor, and which actor that is depends on the schedule, so the names actors get
  /// by the step that first touches them (``StepAccesses``) would differ between runs that share
  /// those steps, and a sleeping option would be compared with another actor than its own.
  private func wokenByCompletion(_ task: TaskID) -> Bool {
    // A held task that completed in the job is recorded as it wakes its waiter.
    if !tasks.heldTasksRunning.isEmpty { recordHeldTasksCompleted() }
    return ExecutorAdoption.resumesInRuntime(taskAt: tasks.registry[task].address)
  }
}
