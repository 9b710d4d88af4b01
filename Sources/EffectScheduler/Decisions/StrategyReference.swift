/// A strategy borrowed for one or more runs: how the drive loop calls the strategy of the run under
/// way without copying it, boxing it or knowing its type.
///
/// A search makes one reference for all its runs, so a run costs no closures of its own.
package struct StrategyReference {
  /// Asks for the position of the job to run among those ready at a step; told, where the
  /// scheduler knows it, how many of them lead the list as it was offered at the step before,
  /// less the job taken there (``ReadyQueue/keptSinceLastChoice``), which a search may use to look
  /// at only the jobs that became ready since.
  let nextJob: ([ReadyJob], Int, Int?) throws -> Int
  let runDidFinish: (Int) throws -> Void
  /// Whether each actor job of the trace must list every task queued on the actor when the job
  /// began, which the runtime does not announce: the partial-order reduction needs to know which
  /// step queued work on an actor already scheduled. Reading it costs a look at the runtime's
  /// record of each waiting task per actor job, so only searches that use it ask for it.
  package var listsQueuedActorWork = false
  /// Whether the run records what steps share that no job shows: after every step, the tasks it
  /// cancelled, at that step rather than at the cancelled task's next job, and the locks each
  /// step took, such as a stream's buffer's or an `NSLock` (see VisibleLocks.swift). The
  /// partial-order reduction must know which step wrote a task's cancelled flag, which every step
  /// of that task reads, and which steps shared a buffer. It costs a look at each task's flag per
  /// step and a note per lock, so only searches that use it ask for it.
  package var watchesHiddenAccesses = false
  /// Whether the run notes the locks its steps take, as ``watchesHiddenAccesses`` does, and
  /// nothing else: enough to tell whether a step took a lock the scheduler does not control
  /// (``LockWatch/tookUncontrolledLocks``), without the cancellations' look at every task per
  /// step. A search that does not watch its runs asks it for its first run, so that its summary
  /// can say so without the determinism check's runs.
  package var watchesLocks = false

  /// Whether ``listsQueuedActorWork`` can be honoured here: the runtime's records of task waits
  /// and actor queues were verified readable in this process (see ``RuntimeCapabilities``).
  package static var canListQueuedActorWork: Bool {
    RuntimeCapabilities.current.isOn(.taskWaits) && RuntimeCapabilities.current.isOn(.actorQueues)
  }

  /// Calls `nextJob` for every choice and `runDidFinish` when a run finishes.
  package init(nextJob: @escaping ([ReadyJob], Int, Int?) throws -> Int, runDidFinish: @escaping (Int) throws -> Void) {
    self.nextJob = nextJob
    self.runDidFinish = runDidFinish
  }

  /// Calls through `strategy`, as ``init(_:)`` does, in runs that watch hidden accesses.
  package init(watchingHiddenAccessesOf strategy: UnsafeMutablePointer<some SchedulingStrategy>) {
    self.init(strategy)
    watchesHiddenAccesses = true
  }

  /// Calls through `strategy`, which must stay where it is for as long as the reference is used.
  /// Made where the strategy's type is known, the closures call it directly, without a witness
  /// table; hence a module that runs many schedules makes its references itself.
  package init(_ strategy: UnsafeMutablePointer<some SchedulingStrategy>) {
    self.init(
      nextJob: { ready, step, _ in try strategy.pointee.nextJob(among: ready, step: step) },
      runDidFinish: { steps in try strategy.pointee.runDidFinish(steps: steps) })
  }
}
