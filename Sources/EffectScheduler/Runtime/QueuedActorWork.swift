extension DeterministicScheduler {
  /// The tasks other than `known` queued on the actor at `address`, in the order they last ran:
  /// the work its job is about to run. A task that steps onto an actor already scheduled joins the
  /// actor's queue without a job of its own, so only the runtime's record of each waiting task
  /// (see `TaskWaitReader`) tells the scheduler it is there. The tasks queued on other actors are
  /// kept, for ``noteQueuedWorkRunBeyondTheActor()``.
  func listQueuedWork(onActorAt address: UInt, besides known: [TaskID]) -> [TaskID] {
    var queued: [(lastStep: Int, task: TaskID, actor: UInt)] = []
    var pages = TaskWaitReader.MappedPages()
    pages.checkTogether(registry.records.lazy.filter { !$0.completed }.map(\.address), count: TaskWaitReader.taskBytesRead)
    for index in registry.records.indices {
      let id = TaskID(index)
      guard let lastStep = registry[id].lastStep, !registry[id].completed, !known.contains(id),
        case .executor(let actor) = TaskWaitReader.wait(ofTaskAt: registry[id].address, runtimeID: registry.runtimeID(of: id), pages: &pages)
      else { continue }
      queued.append((lastStep, id, actor))
    }
    queued.sort { ($0.lastStep, $0.task.rawValue) < ($1.lastStep, $1.task.rawValue) }
    actors.queuedElsewhere = queued.filter { $0.actor != address }.map { ($0.task, $0.actor) }
    return queued.filter { $0.actor == address }.map(\.task)
  }

  /// Adds to the actor's job under way the tasks queued on other actors when it began that are
  /// not queued there any more: a task the job took along to another actor left that actor's
  /// queue to the job, which ran it.
  func noteQueuedWorkRunBeyondTheActor() {
    var pages = TaskWaitReader.MappedPages()
    pages.checkTogether(actors.queuedElsewhere.lazy.map { self.registry[$0.task].address }, count: TaskWaitReader.taskBytesRead)
    for (task, actor) in actors.queuedElsewhere where actors.runningJob?.contains(task) == false {
      guard TaskWaitReader.wait(ofTaskAt: registry[task].address, runtimeID: registry.runtimeID(of: task), pages: &pages) != .executor(address: actor)
      else { continue }
      actors.runningJob?.append(task)
    }
  }
}
