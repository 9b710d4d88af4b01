/// How a run ends: the strategy told, the run finished, cut short or abandoned, and the
/// structured children it left completed.
extension DeterministicScheduler {
  /// Tells the strategy the run has ended; the run's failure if the strategy objects.
  func tellStrategyTheRunEnded() -> RunEnding? {
    do {
      try strategy!.runDidFinish(step)
      return nil
    } catch let divergence as ReplayDivergence {
      return .failed(.diverged(divergence))
    } catch {
      return .failed(.strategyFailed(String(describing: error)))
    }
  }

  func finish() -> RunEnding {
    completeStructuredChildren()
    isDriving = false
    mailbox.close(.finished, runningLateOn: self)
    releaseTimers()
    if let failure = tellStrategyTheRunEnded() { return failure }
    var unfinished: [TaskInfo] = []
    for index in tasks.registry.records.indices where !tasks.registry[TaskID(index)].completed && tasks.registry[TaskID(index)].info.kind == .unstructured {
      unfinished.append(tasks.registry[TaskID(index)].info)
    }
    return .finished(unfinished: unfinished)
  }

  /// Stops a run whose delayed task read the clock or slept (see TimingAssumption.swift). Its
  /// tasks, timers included, stay where they are and never run again, so nothing the program does
  /// past the cut has effects: an outcome it records at its end is not recorded. The strategy
  /// hears of the run's end, as a search goes on past it.
  func stopCutRun(at cut: Int) -> RunEnding {
    isDriving = false
    mailbox.close(.abandoned, runningLateOn: self)
    time.timers.removeAll()
    if let failure = tellStrategyTheRunEnded() { return failure }
    return .failed(.cutShort(step: cut))
  }

  func abandon(_ reason: SchedulerError.Reason) -> RunEnding {
    isDriving = false
    mailbox.releaseLateJobs(
      ofTasks: tasks.heldTasks.filter { $0.record != nil && !tasks.registry[$0.id].completed }.map { tasks.registry.runtimeID(of: $0.id) })
    mailbox.close(.abandoned, runningLateOn: self)
    return .failed(reason)
  }

  /// A structured child must finish before its parent's scope ends, so once its parent has
  /// completed, the child's last job was the one that completed it. Parents are registered before
  /// their children, so one pass in order settles grandchildren too.
  func completeStructuredChildren() {
    for index in tasks.registry.records.indices {
      let id = TaskID(index)
      guard tasks.registry[id].info.kind == .asyncLet || tasks.registry[id].info.kind == .groupChild,
        tasks.registry[id].info.parent.map({ tasks.registry[$0].completed }) ?? true, let end = tasks.registry[id].lastJobEnd,
        trail.events[end].kind == .suspended
      else { continue }
      trail.events[end].kind = .completed
      tasks.registry[id].completed = true
    }
  }
}
