#if os(Linux) && _pointerBitWidth(_64)
  import Dispatch

  /// Probes what is read of a default actor and its jobs: ``RuntimeMechanism/actorQueues`` and
  /// ``RuntimeMechanism/actorJobs``.
  ///
  /// A task that prefers a ``ProbeExecutor`` enters an actor and, holding it, runs the first job
  /// of its `async let` child, which calls the actor and so is queued on it: `ActorQueue` must
  /// read that child, and only it, as queued. Once the task leaves the actor, the runtime drains
  /// the actor for the child with a job of its own, which `defaultActorAddress(ofJob:)` must read
  /// as the actor's; where the runtime hands that job to the global executor rather than to the
  /// child's preference, the probe waits for it, at most a second, and leaves the job unchecked.
  enum ActorProbe {
    /// What the probe's tasks leave for it to read.
    fileprivate final class Box: @unchecked Sendable {
      var actor: UInt = 0
      var child: UInt = 0
      var queued: [UInt] = []
      var hasQueued = false
      var finished = false
      var touched = false
    }

    fileprivate actor Held {
      func hold(_ box: Box, on executor: ProbeExecutor) async {
        box.actor = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
        async let touched: Void = ActorProbe.touch(self, box)
        // The child's first job, run holding the actor: it calls the actor and is queued on it.
        executor.runJobs(limit: 1)
        box.queued = ActorQueue.readQueuedJobs(actorAt: box.actor).map { UInt(bitPattern: unsafeBitCast($0, to: UnsafeRawPointer.self)) }
        box.hasQueued = ActorQueue.readHasQueuedJobs(actorAt: box.actor)
        await touched
        box.touched = touches == 1
      }

      /// How many times the probe's child touched the actor: state of the actor's own, so that the
      /// hop to it is not optimized away.
      private(set) var touches = 0

      @inline(never)
      func touch() { touches += 1 }
    }

    fileprivate static func touch(_ held: Held, _ box: Box) async {
      box.child = addressOfCurrentTask()
      await held.touch()
    }

    static func probe(taskWaits: Bool) -> (queues: MechanismStatus, jobs: MechanismStatus) {
      let executor = ProbeExecutor()
      let box = Box()
      let held = Held()
      let task = Task(executorPreference: executor) {
        await held.hold(box, on: executor)
        box.finished = true
      }
      let finished = executor.runJobs(limit: 64, patience: .seconds(1)) { box.finished }
      withExtendedLifetime((task, held)) {}
      let queues: MechanismStatus =
        !taskWaits ? .failedProbe("needs task waits, which are off")
        : box.child == 0 || !finished || !box.touched ? .failedProbe("the probe's tasks did not run as expected")
        : box.queued != [box.child] || !box.hasQueued ? .failedProbe("an actor with one task queued reads as \(box.queued.count) jobs queued")
        : .verified
      let drained = executor.drainedActors.withLock { $0 }
      let jobs: MechanismStatus =
        drained.isEmpty ? .failedProbe("the runtime drained the actor with no job the probe saw")
        : drained.allSatisfy({ $0 == box.actor }) ? .verified
        : .failedProbe("the actor's job does not name it where it is looked for")
      return (queues, jobs)
    }
  }
#endif
