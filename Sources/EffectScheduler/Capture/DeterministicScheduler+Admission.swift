import InstrumentationEntryPoints
/// How a job comes under the scheduler: admitted from the runtime's hooks, a task registered
/// when it is spawned, and the running task's name learnt.
extension DeterministicScheduler {
  /// Adds a job to the ready jobs, registering its task if this is the task's first job.
  func admit(_ job: UnownedJob, fromOutside: Bool, onMainActor: Bool) {
    instrumentation_library_enter()
    defer { instrumentation_library_exit() }
    if !fromOutside { learnRunningTaskName() }
    let flags = JobFlags(job)
    if flags.isContinuationTrampoline {
      queue.trampolines.append(job)
      return
    }
    var task: TaskID?
    if flags.isTask {
      let runtimeID = runtimeTaskID(job)
      task = tasks.registry.id(forRuntimeID: runtimeID) ?? spawn(job, runtimeID: runtimeID, flags: flags, fromOutside: fromOutside)
    }
    if actors.runningJob != nil, !fromOutside { noteWorkOnActor(admitting: task) }
    if trail.instrumented, !fromOutside, running.runningStep != nil {
      enterRaceStep()
      races.madeReady(UInt(bitPattern: unsafeBitCast(job, to: UnsafeRawPointer.self)))
    }
    if let task, !fromOutside {
      noteMadeReadyInStep(job, task: task, onMainActor: onMainActor)
      if let maker = running.runningStep?.owner, maker != task { fairYields.noteProgress(of: maker) }
    }
    let scheduledBy = task == nil && !fromOutside ? running.runningTask ?? running.ownerOfLastJob : nil
    let info = ReadyJob(task: task, arrivedFromOutside: fromOutside, scheduledBy: scheduledBy, isOnMainActor: onMainActor)
    countQueued(info, 1)
    if fairYields.resumingYields, !onMainActor, let task, holdBackYield(job, info, of: task) { return }
    // The main actor runs its jobs in the order they arrive, one at a time, like any serial
    // queue: only the oldest is a choice, and the others wait behind it.
    if onMainActor {
      if queue.mainActorJobIsReady {
        queue.waitingMainActorJobs.append((job, info))
        return
      }
      queue.mainActorJobIsReady = true
    }
    queue.readyJobs.append(job)
    queue.readyInfo.append(info)
    if !fromOutside, !onMainActor, let address = actors.runningAddress, actors.runningJob != nil { pauseDrainIfItGoesOn(address: address) }
  }

  /// Makes the next main-actor job ready once the one before it has been picked.
  func mainActorJobWasPicked() {
    queue.mainActorJobIsReady = false
    guard !queue.waitingMainActorJobs.isEmpty else { return }
    let (job, info) = queue.waitingMainActorJobs.removeFirst()
    queue.readyJobs.append(job)
    queue.readyInfo.append(info)
    queue.mainActorJobIsReady = true
  }

  func spawn(_ job: UnownedJob, runtimeID: UInt64, flags: JobFlags, fromOutside: Bool) -> TaskID {
    let parent = fromOutside ? nil : currentTaskID()
    if tasks.registry.records.isEmpty { tasks.rootRuntimeID = runtimeID }
    let id = tasks.registry.register(job, runtimeID: runtimeID, flags: flags, parent: parent)
    if let parent, let delayedAt = tasks.registry[parent].delayedAt { tasks.registry[id].delayedAt = delayedAt }
    if id.rawValue == 0 {
      tasks.readsTaskStatus =
        !configuration.mechanismsLeftOff.contains(.executorAdoption) && ExecutorAdoption.canAdopt(root: job, executor: executor)
    } else {
      holdIfNeeded(job, id: id, runtimeID: runtimeID)
      retainIfGroupChild(job, id: id)
    }
    if let name = tasks.nameOfNextTask {
      tasks.registry[id].info.name = name
      tasks.nameOfNextTask = nil
    } else if !fromOutside, tasks.registry[id].info.kind == .unstructured {
      // A plain task made here, by code on this thread's stack: a report that finds it without a
      // name names it by that code.
      tasks.registry[id].info.creation = TaskCreation.capture()
    }
    record(id, .spawned)
    // A new task has just copied the creator's task-local values, or not.
    if tasks.witnessBaseline != nil { tasks.witnessBaseline = activeRun?.referenceCount ?? 0 }
    return id
  }

  /// The controlled task running on this thread, if any.
  func currentTaskID() -> TaskID? {
    if let runningTask = running.runningTask { return runningTask }
    return taskReader.currentRuntimeTaskID().flatMap(tasks.registry.id(forRuntimeID:))
  }

  /// Learns the name of the task whose job is running, when it hands the scheduler a job or
  /// pauses. The runtime offers no way to read another task's name, so this is the moment to
  /// learn it.
  @inline(__always)
  func learnRunningTaskName() {
    // Inlined up to here, as almost every job a task hands over finds its name already learned.
    guard let id = running.runningTask, !tasks.registry[id].nameResolved else { return }
    learnName(ofRunningTask: id)
  }

  func learnName(ofRunningTask id: TaskID) {
    // Within a hop the runtime may have no current task yet: the name is learned later.
    guard let runningJob = running.runningJob, taskReader.currentTaskAddress() == unsafeBitCast(runningJob, to: UnsafeRawPointer.self) else { return }
    tasks.registry[id].nameResolved = true
    tasks.registry[id].info.name = tasks.registry[id].info.name ?? currentTaskName()
  }
}
