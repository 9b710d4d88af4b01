extension DeterministicScheduler {
  /// The tasks other than `known` queued on the actor at `address`, whose job runs on this
  /// thread, in the order the actor runs them: the work its job goes on with. A task that steps
  /// onto an actor already scheduled joins the actor's queue without a job of the scheduler's, and
  /// so does a task made in the actor's code, isolated to it: such a task, made by the program
  /// (after its root), is registered here, as made in the job's step.
  ///
  /// A task is listed once: where thousands wait on one actor, the tasks already listed are told
  /// apart by marks (``RunActors/listed``), not by a look through the list for each, which made a
  /// run whose tasks all queue on one actor cost the cube of their number.
  func queuedTasks(onActorAt address: UInt, besides known: [TaskID]) -> [TaskID] {
    var queued: [TaskID] = []
    actors.listed.removeAll()
    for task in known { _ = actors.listed.insert(task) }
    for job in ActorQueue.queuedJobs(actorAt: address) where JobFlags(job).isTask {
      let runtimeID = runtimeTaskID(job)
      guard let id = tasks.registry.id(forRuntimeID: runtimeID) ?? (runtimeID > tasks.rootRuntimeID ? spawn(job, runtimeID: runtimeID, flags: JobFlags(job), fromOutside: false) : nil),
        actors.listed.insert(id)
      else { continue }
      queued.append(id)
    }
    return queued
  }

  /// Keeps, for ``noteQueuedWorkRunBeyondTheActor()``, the tasks queued on actors other than the
  /// one at `address` as its job begins, read from the runtime's record of each waiting task (see
  /// `TaskWaitReader`). Only a task without an executor preference can take the job beyond its
  /// actor, so without one the list is left empty.
  func keepWorkQueuedElsewhere(than address: UInt) {
    guard tasks.registry.records.contains(where: { $0.prefersNoExecutor && !$0.completed }) else { return }
    var queued: [(lastStep: Int, task: TaskID, actor: UInt)] = []
    var pages = TaskWaitReader.MappedPages()
    pages.checkTogether(tasks.registry.records.lazy.filter { !$0.completed }.map(\.address), count: TaskWaitReader.taskBytesRead)
    for index in tasks.registry.records.indices {
      let id = TaskID(index)
      guard let lastStep = tasks.registry[id].lastStep, !tasks.registry[id].completed,
        case .executor(let actor) = TaskWaitReader.wait(ofTaskAt: tasks.registry[id].address, runtimeID: tasks.registry.runtimeID(of: id), pages: &pages),
        actor != address
      else { continue }
      queued.append((lastStep, id, actor))
    }
    queued.sort { ($0.lastStep, $0.task.rawValue) < ($1.lastStep, $1.task.rawValue) }
    actors.queuedElsewhere = queued.map { ($0.task, $0.actor) }
  }

  /// Adds to the actor's job under way the tasks queued on other actors when it began that are
  /// not queued there any more: a task the job took along to another actor left that actor's
  /// queue to the job, which ran it.
  func noteQueuedWorkRunBeyondTheActor() {
    var pages = TaskWaitReader.MappedPages()
    pages.checkTogether(actors.queuedElsewhere.lazy.map { self.tasks.registry[$0.task].address }, count: TaskWaitReader.taskBytesRead)
    for (task, actor) in actors.queuedElsewhere where actors.runningJob?.contains(task) == false {
      guard TaskWaitReader.wait(ofTaskAt: tasks.registry[task].address, runtimeID: tasks.registry.runtimeID(of: task), pages: &pages) != .executor(address: actor)
      else { continue }
      actors.runningJob?.append(task)
    }
  }
}
