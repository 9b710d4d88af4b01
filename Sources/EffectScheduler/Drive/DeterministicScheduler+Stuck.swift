extension DeterministicScheduler {
  /// Whether no thread outside the scheduler can end what the run's unfinished tasks wait on, so
  /// that the run is stuck for good and is reported without waiting on the clock: nothing is
  /// announced, in the mailbox or on a timer, and every unfinished task waits, as the runtime
  /// records it, on another unfinished task of the run.
  ///
  /// Anything else may be ended from outside, and keeps the timed wait: a continuation (whoever
  /// holds it may resume it from any thread, and an `AsyncStream`'s continuation may be fed from
  /// any thread too), an executor the scheduler does not run, an actor's turn (with no job ready,
  /// the actor is busy outside the scheduler), a task group (a child may run on an executor of
  /// its own), and a wait the runtime's record does not tell: on other platforms, every wait.
  func nothingOutsideCanEndTheWaits() -> Bool {
    guard mailbox.isEmpty, mailbox.expectedFromOutside == 0, time.timers.isEmpty else { return false }
    for index in tasks.registry.records.indices where !tasks.registry[TaskID(index)].completed {
      let id = TaskID(index)
      // A task paused at a lock waits for the task that holds it, whose wait is looked at in turn.
      if holderOfLockAwaited(by: id) != nil { continue }
      guard case .task(let address) = TaskWaitReader.wait(ofTaskAt: tasks.registry[id].address, runtimeID: tasks.registry.runtimeID(of: id)),
        let awaited = TaskWaitReader.runtimeID(ofTaskAt: address).flatMap(tasks.registry.id(forRuntimeID:)),
        !tasks.registry[awaited].completed
      else { return false }
    }
    // A job from outside may have come in meanwhile, from a task the scheduler took for finished.
    return mailbox.isEmpty
  }

  /// Whether nothing outside the scheduler took part in the run so far, but threads, and the
  /// configuration lets such a stuck run be reported without waiting out the timeout (see
  /// ``SchedulerConfiguration/reportsDeadlocksAtOnce``): nothing came from outside, is announced
  /// or due on the virtual clock, nothing was handed to Dispatch (by the run's code or a thread it
  /// started), and no task waits for an executor or a task the scheduler does not run.
  func nothingOutsideTookPart() -> Bool {
    guard configuration.reportsDeadlocksAtOnce, !mailbox.everReceived, trail.handOffs.isEmpty, mailbox.isEmpty, mailbox.expectedFromOutside == 0,
      time.timers.isEmpty, !runThreads.handedWorkToDispatch
    else { return false }
    for index in tasks.registry.records.indices where !tasks.registry[TaskID(index)].completed {
      let id = TaskID(index)
      if holderOfLockAwaited(by: id) != nil { continue }
      switch TaskWaitReader.wait(ofTaskAt: tasks.registry[id].address, runtimeID: tasks.registry.runtimeID(of: id)) {
      // With no job ready, an actor that has tasks queued is running elsewhere.
      case .executor: return false
      case .task(let address) where TaskWaitReader.runtimeID(ofTaskAt: address).flatMap(tasks.registry.id(forRuntimeID:)) == nil: return false
      default: continue
      }
    }
    return true
  }

  /// Waits for work from outside while a thread the run started lives, for such a thread may have
  /// been handed what the tasks wait on, and at most `outsideWorldTimeout`; returns whether
  /// something came. Threads other code starts meanwhile, for another test say, do not count
  /// (RunThreads.swift); where the run's own threads cannot be told, a thread that began during
  /// the run holds the report back until it ends. With no such thread, the report comes after a
  /// glance of 2 ms.
  func waitWhileThreadsOfTheRunLive() -> Bool {
    let start = RealTime.now
    let deadline = start + configuration.outsideWorldTimeout
    // Where the run's hand-offs to Dispatch are not seen, a continuation may have been handed to a
    // dispatch queue's worker, a thread from before the run, which resumes it in a moment: such a
    // wait gets a grace period first. Where they are seen, a run that made one does not get here.
    let grace =
      start + (!DispatchHandOffs.areSeen && continuationIsAwaited() ? min(configuration.outsideWorldTimeout, Self.continuationGrace) : .zero)
    // A first glance is quick, for a thread that already existed and was handed something just now.
    var glance = Duration.milliseconds(2)
    while true {
      switch mailbox.waitForMail(timeout: glance) {
      case .mail, .wokenUp: return true
      case .timedOut: if mailbox.expectedFromOutside > 0 { return true }
      }
      // A thread the run handed something to began before the run got stuck: one begun since, by
      // another test say, does not hold the report back. Work such a thread handed to Dispatch
      // before it ended keeps the wait on, to the timeout.
      let now = RealTime.now
      let threadsLive =
        now < grace || runThreads.handedWorkToDispatch
        || (RunThreads.areKnown
          ? runThreads.anyAlive : ThreadCensus.threadBegan(from: time.runStartedAt.duration(to: now), until: start.duration(to: now)))
      if !threadsLive || now >= deadline {
        // A thread that has just ended may have handed work back before it did.
        return !mailbox.isEmpty
      }
      glance = min(glance * 2, .milliseconds(50))
    }
  }

  /// How long a stuck run whose tasks wait on a continuation waits for it at least, before it is
  /// reported as a deadlock at once, where the run's hand-offs to Dispatch are not seen: a thread
  /// that existed before the run may hold it, such as a dispatch queue's worker handed
  /// `continuation.resume()` a moment ago (`asyncAfter` of 10 ms included), which no census of
  /// threads can tell from an idle one.
  static let continuationGrace = Duration.milliseconds(250)

  /// Whether an unfinished task waits on a continuation other than a stream's, as the runtime
  /// records it.
  private func continuationIsAwaited() -> Bool {
    tasks.registry.records.indices.contains { index in
      let id = TaskID(index)
      guard !tasks.registry[id].completed,
        case .continuation(let resumeFunction) = TaskWaitReader.wait(ofTaskAt: tasks.registry[id].address, runtimeID: tasks.registry.runtimeID(of: id))
      else { return false }
      return !isStreamWait(resumeFunction)
    }
  }

  /// Why no job can run and nothing came back, with what each unfinished task waits on: a deadlock
  /// when nothing outside the scheduler ever took part in the run or nothing outside can end its
  /// waits (`waitsAreInside`), a stall otherwise.
  func stuckReason(waitsAreInside: Bool = false) -> SchedulerError.Reason {
    let deadlocked = waitsAreInside || !mailbox.everReceived
    let blocked = tasks.registry.records.indices.compactMap { index -> BlockedTask? in
      let id = TaskID(index)
      guard !tasks.registry[id].completed else { return nil }
      let waitingOn = tasks.registry[id].waitingOn?() ?? runtimeWait(of: id, deadlocked: deadlocked) ?? unfinishedChildren(of: id)
      return BlockedTask(
        task: tasks.registry[id].info, lastStep: tasks.registry[id].lastStep, waitingOn: waitingOn, isPaused: pausing.pausedJobs.contains { $0.task == id })
    }
    if rootCompleted { return .leakedTasks(blocked: blocked, stillRunningAfter: nil) }
    return deadlocked
      ? .deadlock(blocked: blocked)
      : .stalled(waited: configuration.outsideWorldTimeout, blocked: blocked)
  }

  /// What the runtime records that `id` waits on, in words, when it is something the report can
  /// name: another task of the run, a continuation, or an actor of the run.
  private func runtimeWait(of id: TaskID, deadlocked: Bool) -> String? {
    switch TaskWaitReader.wait(ofTaskAt: tasks.registry[id].address, runtimeID: tasks.registry.runtimeID(of: id)) {
    case .task(let address):
      return tasks.registry.records.first { $0.address == address }.map { "task \($0.info)" }
    case .continuation(let resumeFunction):
      if isStreamWait(resumeFunction) {
        return deadlocked ? "an AsyncStream that no task of the program can feed any more" : "an AsyncStream's next element"
      }
      return deadlocked ? "a continuation that no task of the program can resume any more" : "a continuation"
    case .executor(let address):
      // A default actor hands its jobs to the scheduler, so only an actor with an executor of
      // its own (or one the runtime does not report) can keep a task waiting for its turn.
      guard let index = actors.addresses.lastIndex(of: address) else {
        return "its turn on an executor outside the scheduler's control"
      }
      return "its turn on actor \(Trace(actors: actors.entries).actorName(index))"
    case nil:
      return nil
    }
  }

  /// The task holding the lock that `task` waits for, paused, if it does.
  func holderOfLockAwaited(by task: TaskID) -> TaskID? {
    guard !pausing.pausedJobs.isEmpty else { return nil }
    for paused in pausing.pausedJobs where paused.task == task {
      if let lock = paused.blockedOn { return lock.holder(inRun: runSerial) }
    }
    return nil
  }

  /// Whether a continuation that resumes `resumeFunction` is a stream's iterator waiting. The
  /// first call starts tasks of its own to learn that (see `StreamWaits`), which the scheduler
  /// must not take for the program's: meanwhile it does not count as driving.
  private func isStreamWait(_ resumeFunction: UInt) -> Bool {
    let wasDriving = isDriving
    isDriving = false
    defer { isDriving = wasDriving }
    return StreamWaits.isStreamWait(resumeFunction: resumeFunction)
  }

  /// The structured children `id` has yet to see finish, which it may be waiting for.
  private func unfinishedChildren(of id: TaskID) -> String? {
    let children = tasks.registry.records.filter { $0.info.parent == id && !$0.completed && $0.info.kind != .unstructured }
    guard !children.isEmpty else { return nil }
    return "its child tasks " + children.map(\.info.description).joined(separator: ", ")
  }
}
