import EffectScheduler

// The script's side of the handshake.
extension TestSession {
  /// Suspends until the program waits on the script or has ended.
  ///
  /// The program usually gets there within microseconds of the script's last answer, so a script
  /// on a thread of its own first spins briefly on ``settlements``: a hand-off then costs no
  /// thread wake-up on either side. Only when that is not enough does it suspend, and the program
  /// resumes it. A script running on the program's driver thread suspends at once, since the
  /// program can only go on once it has.
  func waitUntilSettled() async {
    guard let seen = state.withLock({ $0.isSettled ? nil : settlements.load(ordering: .acquiring) }) else { return }
    if guest?.isOnHostThread != true, spinBriefly(until: { settlements.load(ordering: .acquiring) != seen }),
      state.withLock({ $0.isSettled })
    {
      return
    }
    await withUnsafeContinuation { continuation in
      let settled = state.withLock { state in
        if state.isSettled { return true }
        state.settleWaiter = continuation
        return false
      }
      if settled { continuation.resume() }
    }
  }

  /// Waits until the program has settled and returns the oldest item it waits on that `preferred`
  /// accepts, or else the oldest item, without taking it; throws, and records, the failure
  /// `expected` meets when there is none.
  ///
  /// Elements wait apart from effects and tasks: yielding an element does not stop its producer,
  /// so which came first says little, and the script may take them in either order.
  func next(
    expecting expected: String, at site: CallSite, preferring preferred: (PendingEffect) -> Bool
  ) async throws(EffectTestFailure) -> PendingEffect {
    await waitUntilSettled()
    let next: Result<PendingEffect, EffectTestFailure> = state.withLock { state in
      if let first = state.pending.first(where: preferred) ?? state.pending.first { return .success(first) }
      let problem: EffectTestFailure.Problem =
        if state.programEnded || state.programAbandoned {
          .programEnded(expected: expected, error: state.programError)
        } else if state.heldTasks.isEmpty {
          .waitingForElements(expected: expected, elements: state.heldElements.map(\.description))
        } else {
          .waitingForTasks(expected: expected, tasks: state.heldTasks.map(\.name))
        }
      let failure = EffectTestFailure(problem, at: site)
      state.failures.append(failure)
      return .failure(failure)
    }
    return try next.get()
  }

  /// Takes `pending`, whose reply the script has stored, and hands the reply over; then waits
  /// until the program has settled again.
  func answer(_ pending: PendingEffect) async {
    guard case .effect(_, let slot) = pending.subject else { return }
    let scheduler = state.withLock { state in
      _ = state.pending.removeFirst { $0.number == pending.number }
      if slot.isBlocking { state.blockedThreads -= 1 }
      return state.scheduler
    }
    // A blocked thread, or a task that is not the scheduler's, gets its reply at once.
    handOver(slot.resume, atOnce: slot.isBlocking || !pending.isOnDriver, on: scheduler)
    await waitUntilSettled()
  }

  /// Takes `pending`, a task the program created or an element a stream yielded, which stays
  /// held until the script lets it go.
  func take(_ pending: PendingEffect) {
    state.withLock { _ = $0.pending.removeFirst { $0.number == pending.number } }
  }

  /// Lets a held task start: its first step runs once the program's current steps are done.
  /// A task that is not held is left alone.
  func enqueue(_ task: TrackedTask) {
    let (scheduler, wasHeld) = state.withLock { state in
      guard let index = state.heldTasks.firstIndex(where: { $0 === task }) else { return (state.scheduler, false) }
      state.heldTasks.remove(at: index)
      return (state.scheduler, true)
    }
    guard wasHeld else { return }
    handOver(task.enqueue, atOnce: false, on: scheduler)
  }

  /// Runs `handover` on the scheduler's thread when it next has nothing to run, or at once when
  /// `atOnce` or when the program has ended. Resuming the program's tasks only at such points
  /// keeps the order of its steps independent of when the script answers.
  ///
  /// It takes over one announcement of work from outside that is open for what it hands over
  /// (the effect answered, the task or element held), and withdraws it once `handover` has run:
  /// until then the scheduler waits for it without a time limit.
  func handOver(_ handover: @escaping @Sendable () -> Void, atOnce: Bool, on scheduler: DeterministicScheduler?) {
    let queued =
      !atOnce
      && state.withLock { state in
        guard !state.programEnded else { return false }
        state.handovers.append(handover)
        state.driverIsIdle = false
        return true
      }
    guard queued else {
      handover()
      scheduler?.withdrawWorkFromOutside()
      return
    }
    scheduler?.wakeUpDriver()
  }

  /// Ends the script: whatever the program still waits on is a failure. A throwing effect gets it
  /// thrown, a held task is enqueued, and held elements go as `releaseHeldElements(unexpected:on:)`
  /// says. Any other effect means the program is abandoned: a synchronous one releases its thread
  /// with the emptiest reply (see `ReplySlot.storeRelease()`), and an asynchronous one leaves its
  /// task waiting for good.
  func scriptDidEnd() {
    let (scheduler, unanswered, tasks, unexpectedElements) = state.withLock { state in
      state.scriptEnded = true
      var unanswered: [(slot: ReplySlot, failure: EffectTestFailure)] = []
      var unexpectedElements: [HeldElement] = []
      for pending in state.pending {
        switch pending.subject {
        case .effect(_, let slot):
          unanswered.append((slot, EffectTestFailure(.unanswered(performed: pending.description), at: site)))
        case .element(let element):
          unexpectedElements.append(element)
        case .task:
          continue
        }
      }
      state.failures += unanswered.map(\.failure)
      let tasks = taskHandling == .suspend ? state.heldTasks : []
      state.pending.removeAll()
      state.blockedThreads = 0
      if taskHandling == .suspend { state.heldTasks = [] }
      return (state.scheduler, unanswered, tasks, unexpectedElements)
    }
    var abandoned = false
    for (slot, failure) in unanswered {
      if slot.storeFailure(failure) {
        slot.resume()
      } else {
        abandoned = true
        if slot.storeRelease() { slot.resume() }
      }
      scheduler?.withdrawWorkFromOutside()
    }
    for task in tasks {
      task.enqueue()
      scheduler?.withdrawWorkFromOutside()
    }
    releaseHeldElements(unexpected: unexpectedElements, on: scheduler)
    if abandoned { abandonProgram() }
  }

  /// Suspends until the program has ended or waits for good.
  func waitUntilProgramEnds() async {
    await withUnsafeContinuation { continuation in
      let ended = state.withLock { state in
        if state.programEnded || state.programAbandoned { return true }
        state.endWaiter = continuation
        return false
      }
      if ended { continuation.resume() }
    }
  }
}
