#if canImport(Glibc)
  import Glibc
#endif

// Each mechanism is tried once, on objects whose contents the probe knows, on the calling thread:
// tasks that prefer a `ProbeExecutor` run only when the probe runs their jobs, so nothing here
// waits on another thread but the actor probe, which waits a bounded time. Every read a probe
// makes is of memory it owns or keeps alive (a task it holds a handle to, a lock on its own
// heap), or checked as mapped first, so a layout other than the one known reads wrong values,
// never faults. A scheduler reads ``RuntimeCapabilities/current`` before its first run begins,
// so the probes never run inside a run.

extension RuntimeCapabilities {
  /// Probes every mechanism.
  init(probing: Void) {
    var statuses: [RuntimeMechanism: MechanismStatus] = [:]
    statuses[.globalExecutorHooks] = Self.probeGlobalExecutorHooks()
    #if os(Linux) && _pointerBitWidth(_64)
      let lockHolders = LockProbe.probe()
      statuses[.lockHolders] = lockHolders
      let tasks = TaskProbe.probe(lockHolders: lockHolders.isOn)
      statuses[.taskWaits] = tasks.waits
      statuses[.executorAdoption] = tasks.adoption
      statuses[.taskStatusLocks] = tasks.statusLocks
      let actors = ActorProbe.probe(taskWaits: tasks.waits.isOn)
      statuses[.actorQueues] = actors.queues
      statuses[.actorJobs] = actors.jobs
      statuses[.importedFunctionSlots] = SlotProbe.probe()
      statuses[.taskCreationSites] = TaskCreation.probe()
    #else
      for mechanism in RuntimeMechanism.allCases where mechanism != .globalExecutorHooks {
        statuses[mechanism] = .unavailable("its layout is known on 64-bit Linux only")
      }
    #endif
    self.init(statuses)
  }

  /// The hooks are variables the runtime exports: they exist or they do not.
  private static func probeGlobalExecutorHooks() -> MechanismStatus {
    let enqueue: UnsafeRawPointer? = runtimeFunction("swift_task_enqueueGlobal_hook")
    let main: UnsafeRawPointer? = runtimeFunction("swift_task_getMainExecutor_hook")
    return enqueue != nil && main != nil ? .verified : .unavailable("the runtime exports no such hooks")
  }
}
