#if os(Linux) && _pointerBitWidth(_64)
  /// Probes what is read and written of a task: ``RuntimeMechanism/taskWaits``,
  /// ``RuntimeMechanism/executorAdoption`` and ``RuntimeMechanism/taskStatusLocks``.
  ///
  /// Two tasks that prefer a ``ProbeExecutor``: one suspended on a continuation inside a
  /// cancellation handler, one waiting for the first's value. `TaskWaitReader` must read the first
  /// as waiting on a continuation and the second as waiting on the first; the first must carry
  /// its preference record, below the handler's, where `ExecutorAdoption` looks, and read as
  /// completed once it is, not before; and cancelling it runs its handler on this thread holding
  /// its status lock, which must be the mutex where `VisibleLocks` looks for it.
  enum TaskProbe {
    /// What the probe's tasks leave for it to read; each is written by a job the probe runs on
    /// its own thread, before it reads.
    private final class Box: @unchecked Sendable {
      var continuation: UnsafeContinuation<Void, Never>?
      var waited: UInt = 0
      var waiter: UInt = 0
      var handlerThread: Int32 = -1
      var statusLockHolder: Int32 = 0
      var finished = 0
    }

    static func probe(lockHolders: Bool) -> (waits: MechanismStatus, adoption: MechanismStatus, statusLocks: MechanismStatus) {
      guard TaskWaitReader.layoutIsKnown else {
        let failed = MechanismStatus.failedProbe("the runtime's debug symbols describe another task layout")
        return (failed, failed, failed)
      }
      let executor = ProbeExecutor()
      let box = Box()
      let waited = Task(executorPreference: executor) {
        box.waited = addressOfCurrentTask()
        await withTaskCancellationHandler {
          await withUnsafeContinuation { box.continuation = $0 }
        } onCancel: {
          box.handlerThread = Int32(truncatingIfNeeded: ThreadCensus.ownThreadID() ?? -1)
          box.statusLockHolder = LockHolders.ofMutex(at: box.waited + VisibleLocks.statusLockOffset)
        }
        box.finished += 1
      }
      let waiter = Task(executorPreference: executor) {
        box.waiter = addressOfCurrentTask()
        await waited.value
        box.finished += 1
      }
      executor.runJobs()
      guard box.continuation != nil, box.waited != 0, box.waiter != 0 else {
        let failed = MechanismStatus.failedProbe("the probe's tasks did not suspend")
        return (failed, failed, failed)
      }
      let waits = probeWaits(box)
      let preferred = ExecutorAdoption.carriesPreference(taskAt: box.waited, executor: executor.asUnownedTaskExecutor())
      let completedEarly = ExecutorAdoption.hasCompleted(taskAt: box.waited)
      waited.cancel()
      let me = Int32(truncatingIfNeeded: ThreadCensus.ownThreadID() ?? -2)
      let statusLocks: MechanismStatus =
        !lockHolders ? .failedProbe("needs lock holders, which are off")
        : box.handlerThread != me ? .failedProbe("the cancellation handler did not run on the cancelling thread")
        : box.statusLockHolder != me ? .failedProbe("the status lock the handler runs under is not where it is looked for")
        : .verified
      box.continuation?.resume()
      executor.runJobs { box.finished == 2 }
      let completed = ExecutorAdoption.hasCompleted(taskAt: box.waited)
      withExtendedLifetime((waited, waiter)) {}
      let adoption: MechanismStatus =
        !waits.isOn ? .failedProbe("needs task waits, which are off")
        : !preferred ? .failedProbe("a task made with a preference does not carry its record where it is looked for")
        : completedEarly || !completed || box.finished != 2 ? .failedProbe("a task's completion does not read as it is")
        : .verified
      return (waits, adoption, statusLocks)
    }

    private static func probeWaits(_ box: Box) -> MechanismStatus {
      let waited = TaskWaitReader.readWait(ofTaskAt: box.waited, runtimeID: runtimeTaskID(at: box.waited))
      guard case .continuation(let resume)? = waited, resume != 0 else {
        return .failedProbe("a task suspended on a continuation reads as \(waited.map { "\($0)" } ?? "unknown")")
      }
      let waiter = TaskWaitReader.readWait(ofTaskAt: box.waiter, runtimeID: runtimeTaskID(at: box.waiter))
      guard waiter == .task(address: box.waited) else {
        return .failedProbe("a task waiting for another's value reads as \(waiter.map { "\($0)" } ?? "unknown")")
      }
      return .verified
    }
  }

  /// The address of the task running on this thread; 0 outside a task.
  func addressOfCurrentTask() -> UInt {
    withUnsafeCurrentTask { task in task.map { UInt(bitPattern: unsafeBitCast($0, to: UnsafeRawPointer.self)) } ?? 0 }
  }
#endif
