import EffectScheduler

/// What each step touched, read from the run's trace: its own work, wake-ups, cancellations,
/// children, and sharing outside actors.
extension StepAccesses {
  /// Notes in ``executed`` the event that began each step's job: a task's start or resumption,
  /// or an actor's job.
  func noteExecutedEvents(_ trace: Trace, steps: Int) {
    executed.removeAll(keepingCapacity: true)
    executed.append(contentsOf: repeatElement(nil, count: steps))
    for event in trace.events where event.step < steps && executed[event.step] == nil {
      switch event.kind {
      case .started, .resumed, .actorJob: executed[event.step] = event
      default: continue
      }
    }
  }

  /// Each step touches its own task, or its actor and the tasks whose work it ran; and the step
  /// of a task before its work runs on an actor touches that actor, since that is where it queued
  /// itself there.
  /// Notes in ``ownTasks`` the tasks whose work each step ran.
  func recordOwnWork(trace: Trace) {
    // By task number: its last step so far, or -1.
    var lastStepOf = Array.takingStorage(of: &scratch.byTask)
    defer { scratch.byTask = lastStepOf }
    ownTasks.removeAll()
    for step in threads.indices {
      guard threads[step] != .clock else {
        ownTasks.append(EmptyCollection())
        continue
      }
      let job = jobRun[step]
      var actor: Int??
      func ran(_ task: TaskID) {
        objects[step].insert(.task(task))
        if task.rawValue >= lastStepOf.count { lastStepOf.append(contentsOf: repeatElement(-1, count: task.rawValue + 1 - lastStepOf.count)) }
        if let actor, lastStepOf[task.rawValue] >= 0 { objects[lastStepOf[task.rawValue]].insert(.actor(actor)) }
        lastStepOf[task.rawValue] = step
      }
      if let task = job.task {
        if job.isOnMainActor { actor = .some(nil) }
        ran(task)
        ownTasks.append(CollectionOfOne(task))
      } else {
        if case .actor(let index) = threads[step] { actor = .some(index) } else { touchesEverything[step] = true }
        if let tasks = trace.actorJobTasks[step] {
          for task in tasks { ran(task) }
          ownTasks.append(tasks)
        } else if let task = job.scheduledBy {
          ran(task)
          ownTasks.append(CollectionOfOne(task))
        } else {
          ownTasks.append(EmptyCollection())
        }
      }
      if let actor { objects[step].insert(.actor(actor)) }
    }
  }

  /// A step that makes another task's job ready (resuming its continuation, completing a task it
  /// waits for, cancelling its sleep) touches that task.
  ///
  /// A step that schedules an actor's job touches the actor. One that steps onto an actor already
  /// scheduled only joins its queue: the actor's job lists it where the runtime's records can be
  /// read (see ``StrategyReference/canListQueuedActorWork``), and ``recordOwnWork`` makes it touch
  /// the actor; elsewhere every step from the job's scheduling to its run touches the actor.
  ///
  /// And what a task saw outside actors in the step that took it onto an actor, the actor's job
  /// may rely on: other tasks' steps outside actors until the job runs touch it
  /// (``Object/seenBeforeHop(step:)``), the check-then-hop of state behind a lock, unless
  /// `keepingWhatHopsSaw` is false.
  func recordWakeUps(keepingWhatHopsSaw: Bool) {
    for step in threads.indices {
      let waker = enabledBy[step]
      switch threads[step] {
      case .task(let task):
        guard let waker, threads[waker] != .task(task) else { continue }
        objects[waker].insert(.task(task))
        if jobRun[step].isOnMainActor { objects[waker].insert(.actor(nil)) }
      case .actor(let actor):
        guard StrategyReference.canListQueuedActorWork else {
          for queuing in (waker ?? 0)..<step { objects[queuing].insert(.actor(actor)) }
          continue
        }
        guard let waker else { continue }
        objects[waker].insert(.actor(actor))
        guard keepingWhatHopsSaw, outsideActors[waker] else { continue }
        for other in waker + 1..<step where outsideActors[other] && threads[other] != threads[waker] {
          objects[other].insert(.seenBeforeHop(step: waker))
          objects[waker].insert(.seenBeforeHop(step: waker))
        }
      case .unplaced:
        if let waker { touchesEverything[waker] = true }
      case .clock:
        continue
      }
    }
  }

  /// A cancellation writes the cancelled task's flag, which every step of that task reads (each may
  /// check `Task.isCancelled`, and a sleep, a stream or a handler does): the step that cancelled
  /// it touches the task. Where the scheduler watched for cancellations after every step, the
  /// event is at that step; elsewhere it is seen only when the cancelled task's next job begins,
  /// and every step since the task's job before touches the task.
  func recordCancellations(_ trace: Trace) {
    for event in trace.events where event.kind == .cancelled {
      guard let task = event.task, event.step < threads.count else { continue }
      if trace.cancellationsAtTheirStep {
        objects[event.step].insert(.task(task))
        continue
      }
      var step = event.step - 1
      while step >= 0, !objects[step].contains(.task(task)) {
        objects[step].insert(.task(task))
        step -= 1
      }
    }
  }

  /// An actor's job that ran a task without an executor preference may have run it on other
  /// actors, unseen: it touches every actor, and may have completed any structured child it ran.
  func recordWorkBeyondActors(_ trace: Trace) {
    for step in trace.stepsBeyondTheirActor where step < threads.count {
      objects[step].formUnion(trace.actors.indices.map { .actor($0) })
      for task in objects[step].compactMap(\.task) {
        guard let info = trace[task: task], info.kind == .groupChild || info.kind == .asyncLet, let parent = info.parent else { continue }
        objects[step].insert(.children(parent))
      }
    }
  }

  /// The order in which structured children complete is what a task group's `next()` returns, so
  /// a child's last step and every step of its parent touch the parent's children. A task made
  /// with `Task {}` is most often awaited by the task that made it, which finds it completed
  /// without waiting, unseen, when it completed first: its last step and every later step of its
  /// maker touch its completion (a maker's step before it that waited on it was woken by it; one
  /// that did not, did not read it), unless that step woke the maker, which orders them already.
  /// A maker of more than ``separateCompletions`` such tasks has them all touch its children
  /// instead, which keeps a step's objects few.
  func recordChildren(_ trace: Trace) {
    var parents = TaskFlags()
    var anyParent = false
    // The tasks made with `Task {}` that completed without waking their maker, and how many each
    // task made so.
    var made = Array.takingStorage(of: &scratch.made)
    var madeBy = Array.takingStorage(of: &scratch.byTask)
    var separate = Array.takingStorage(of: &scratch.separate)
    defer {
      scratch.made = made
      scratch.byTask = madeBy
      scratch.separate = separate
    }
    for event in trace.events where event.kind == .completed && event.step < threads.count {
      guard let task = event.task, trace.tasks.indices.contains(task.rawValue), let parent = trace.tasks[task.rawValue].parent, parent != task
      else { continue }
      let kind = trace.tasks[task.rawValue].kind
      guard kind == .groupChild || kind == .asyncLet else {
        let step = event.step
        if threads.indices[(step + 1)...].contains(where: { threads[$0] == .task(parent) && enabledBy[$0] == step }) { continue }
        made.append((parent, task, step))
        if parent.rawValue >= madeBy.count { madeBy.append(contentsOf: repeatElement(0, count: parent.rawValue + 1 - madeBy.count)) }
        madeBy[parent.rawValue] += 1
        continue
      }
      objects[event.step].insert(.children(parent))
      parents[parent] = true
      anyParent = true
    }
    for entry in made {
      if madeBy[entry.maker.rawValue] > Self.separateCompletions {
        objects[entry.step].insert(.children(entry.maker))
        parents[entry.maker] = true
        anyParent = true
      } else {
        objects[entry.step].insert(.completion(entry.task))
        separate.append(entry)
      }
    }
    swap(&made, &separate)
    guard anyParent || !made.isEmpty else { return }
    for step in threads.indices {
      for object in objects[step] {
        guard let task = object.task else { continue }
        if parents[task] { objects[step].insert(.children(task)) }
        for entry in made where entry.maker == task && entry.step < step { objects[step].insert(.completion(entry.task)) }
      }
    }
  }

  /// Tasks that wake each other from outside any actor (resuming a continuation kept in a
  /// lock-protected box, yielding to a stream another task reads) share something the scheduler
  /// cannot see, so their steps outside actors all touch it. Starting a task and completing one
  /// that another awaits do not count: they share nothing unseen. And when the run ends stuck,
  /// whatever would have woken the waiting tasks went unseen: every task's steps outside actors
  /// then touch one thing in common.
  func recordSharingOutsideActors(trace: Trace, leftWaiting: Bool) {
    // By task number: the step at which it completed, or -1.
    var completedAt = Array.takingStorage(of: &scratch.byTask)
    defer { scratch.byTask = completedAt }
    for event in trace.events where event.kind == .completed {
      guard let task = event.task else { continue }
      if task.rawValue >= completedAt.count { completedAt.append(contentsOf: repeatElement(-1, count: task.rawValue + 1 - completedAt.count)) }
      completedAt[task.rawValue] = event.step
    }
    func completed(_ task: TaskID, at step: Int) -> Bool { task.rawValue < completedAt.count && completedAt[task.rawValue] == step }
    // By task number: the task it was joined with, itself for a root, or -1 for a task never
    // joined; an array kept from run to run rather than a dictionary made for each.
    var parent = Array.takingStorage(of: &scratch.joinedWith)
    defer { scratch.joinedWith = parent }
    func root(_ task: TaskID) -> Int {
      var task = task.rawValue
      while task < parent.count, parent[task] >= 0, parent[task] != task { task = parent[task] }
      return task
    }
    func join(_ task: Int) {
      if task >= parent.count { parent.append(contentsOf: repeatElement(-1, count: task + 1 - parent.count)) }
      if parent[task] < 0 { parent[task] = task }
    }
    var joined = false
    // By task number: whether a step of it ran already.
    var started = TaskFlags()
    for step in threads.indices {
      guard case .task(let woken) = threads[step] else { continue }
      defer { started[woken] = true }
      guard started[woken], let waker = enabledBy[step], case .task(let wakerTask) = threads[waker], woken != wakerTask,
        outsideActors[waker], !completed(wakerTask, at: waker)
      else { continue }
      let (first, second) = (root(woken), root(wakerTask))
      join(first)
      join(second)
      joined = true
      if first != second { parent[max(first, second)] = min(first, second) }
    }
    guard leftWaiting || joined else { return }
    for step in threads.indices where outsideActors[step] {
      guard case .task(let task) = threads[step] else { continue }
      if leftWaiting {
        objects[step].insert(.outsideActors(nil))
      } else if task.rawValue < parent.count, parent[task.rawValue] >= 0 {
        objects[step].insert(.outsideActors(TaskID(root(task))))
      }
    }
  }
}
