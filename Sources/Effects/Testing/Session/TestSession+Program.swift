import EffectScheduler

// The program's side of the handshake.
extension TestSession {
  /// Runs the program as the root task under its scheduler, then waits for every task it created
  /// that may run, so the program has finished only when all of them have.
  func runProgram<Value>(_ program: @Sendable () async throws -> Value) async throws -> Value {
    if let scheduler = DeterministicScheduler.current {
      state.withLock { $0.scheduler = scheduler }
      guest?.attach(to: scheduler)
      scheduler.whenIdle = { [self] in schedulerDidBecomeIdle() }
    }
    let result: Result<Value, any Error>
    do {
      result = .success(try await program())
    } catch {
      result = .failure(error)
    }
    while let task = nextTaskToAwait() { await task.completion() }
    return try result.get()
  }

  /// The oldest task not yet waited for that can run.
  private func nextTaskToAwait() -> TrackedTask? {
    state.withLock { state in
      let held = taskHandling == .ignore ? state.heldTasks : []
      return state.unawaitedTasks.removeFirst { task in !held.contains { $0 === task } }
    }
  }

  /// Hands `pending` to the script. After the script has ended it is a failure: a throwing effect
  /// gets the failure thrown, a task is enqueued, an element ends its stream (failing it when it
  /// can), and any other effect abandons the program, which ends the test; a synchronous one
  /// releases its thread as at the script's end.
  func submit(_ pending: PendingEffect) {
    let scheduler = state.withLock { $0.scheduler }
    let onDriver = scheduler?.isOnDriverThread ?? false
    scheduler?.announceWorkFromOutside()
    let (failure, settled): (EffectTestFailure?, UnsafeContinuation<Void, Never>?) = state.withLock { state in
      guard !state.scriptEnded else {
        let failure = EffectTestFailure(pending.problemAfterScriptEnded, at: site)
        state.failures.append(failure)
        return (failure, nil)
      }
      var pending = pending
      pending.isOnDriver = onDriver
      pending.number = state.submitted
      state.submitted += 1
      state.pending.append(pending)
      switch pending.subject {
      case .effect(_, let slot):
        if slot.isBlocking { state.blockedThreads += 1 }
      case .task(let task):
        state.heldTasks.append(task)
      case .element(let element):
        state.heldElements.append(element)
      }
      if onDriver { state.driverIsIdle = false }
      return (nil, takeSettleWaiterIfSettled(&state))
    }
    guard let failure else {
      if onDriver, case .effect = pending.subject {
        scheduler?.noteCurrentTaskWaits(on: "\(pending.description), waiting for the test script")
      }
      settled?.resume()
      return
    }
    scheduler?.withdrawWorkFromOutside()
    switch pending.subject {
    case .task(let task):
      task.enqueue()
    case .element(let element):
      element.stream.end(throwing: element.stream.canFail ? failure : nil)
    case .effect(_, let slot):
      if slot.storeFailure(failure) {
        slot.resume()
      } else {
        abandonProgram()
        if slot.storeRelease() { slot.resume() }
      }
    }
  }

  /// Marks the program as waiting for good, and lets `withTestHandler` stop waiting for it.
  func abandonProgram() {
    let waiter = state.withLock { state in
      state.programAbandoned = true
      defer { state.endWaiter = nil }
      return state.endWaiter
    }
    waiter?.resume()
  }

  /// Called by the scheduler, on its thread, when no job is ready: hands over the script's replies
  /// and enqueued tasks, or with `.ignore` releases the oldest held task when the program would
  /// otherwise be stuck. A script that runs on this thread runs here, and what it answers is
  /// handed over at once. Returns whether it handed anything over.
  func schedulerDidBecomeIdle() -> Bool {
    if handOverQueuedWork() { return true }
    // A script job that hands nothing over, and waits on something else, lets the scheduler go on
    // waiting or move its clock; a job it enqueues meanwhile wakes the scheduler.
    guard let guest, guest.runQueuedJobs() else { return false }
    return handOverQueuedWork()
  }

  /// What ``schedulerDidBecomeIdle()`` does each time it looks; resumes the script if the program
  /// has settled.
  private func handOverQueuedWork() -> Bool {
    // The handovers are taken with their storage, and the storage of the last ones, emptied,
    // takes their place: no allocation per hand-off.
    var handovers: [@Sendable () -> Void] = []
    let (scheduler, released, settled) = state.withLock { state in
      var released: TrackedTask?
      swap(&handovers, &state.spareHandovers)
      swap(&handovers, &state.handovers)
      // An element waiting for the script stops nobody, so it does not keep a held task back.
      if handovers.isEmpty, taskHandling == .ignore, !state.heldTasks.isEmpty, !state.pending.contains(where: { !$0.isElement() }) {
        released = state.heldTasks.removeFirst()
      }
      state.driverIsIdle = handovers.isEmpty && released == nil
      return (state.scheduler, released, takeSettleWaiterIfSettled(&state))
    }
    let handedOver = !handovers.isEmpty
    for handover in handovers {
      handover()
      scheduler?.withdrawWorkFromOutside()
    }
    handovers.removeAll(keepingCapacity: true)
    state.withLock { swap(&$0.spareHandovers, &handovers) }
    released?.enqueue()
    settled?.resume()
    return handedOver || released != nil
  }

  /// Called when the program's run has ended, with the error it ended with, if any.
  func programDidEnd(error: (any Error)?) {
    // The driver thread is gone: the script runs on the pool from now on.
    guest?.detach()
    let (work, settled, ended) = state.withLock { state in
      state.programEnded = true
      state.programError = error.map { String(describing: $0) }
      settlements.add(1, ordering: .releasing)
      defer {
        state.handovers = []
        state.settleWaiter = nil
        state.endWaiter = nil
      }
      return (state.handovers, state.settleWaiter, state.endWaiter)
    }
    for handover in work { handover() }
    settled?.resume()
    ended?.resume()
  }
}
