import InstrumentationEntryPoints

// What instrumented code's atomic operations ask of the scheduler whose step made them (see
// Instrumentation.swift): a scheduling point before each, at which other ready jobs may run
// first, and the word noted as an object the step touched, as a drop-in atomic's is; and, after a
// compare-exchange that failed because a paused job of the run holds the word as a lock, a wait,
// paused, until that job lets go, rather than a block in the lock's slow path that nothing in the
// run could end. The holder's release may not be seen: where instrumented and plain modules share
// a binary, the linker keeps one copy of each function the standard library emits into its
// clients, such as the part of `Mutex.withLock` that unlocks, and it may be the plain one. So the
// words waited for are read after every step.

extension DeterministicScheduler {
  /// Before an atomic operation: a scheduling point, then the word noted as touched.
  func before(_ operation: InstrumentedAtomic) {
    if Instrumentation.isLibraryWord(operation.address) || isStaticWord(operation.address) { return }
    if mayPause, !pauseRunningJob(blockedOn: nil, noting: LockPause(step: step, atLockAt: operation.address, kind: operation.name, waits: false)) {
      return
    }
    if operation.address != 0 { noteTouch(at: operation.address) }
  }

  /// Whether the atomic word at `address` lies in a loaded image's static data: a type's metadata
  /// cache, filled the first time the process needs it, or a lazily made global, whose first
  /// access initializes it once a process. A scheduling point there would make a process's first
  /// run differ from every later one. Atomics the program shares between tasks live on the heap,
  /// made by each run.
  private func isStaticWord(_ address: UInt) -> Bool {
    #if os(Linux) && _pointerBitWidth(_64)
      if let known = lockWatch.staticWords[address] { return known }
      let isStatic = UnsafeRawPointer(bitPattern: address).flatMap { loadedImageBase(containing: $0) } != nil
      lockWatch.staticWords[address] = isStatic
      return isStatic
    #else
      return false
    #endif
  }

  /// After a compare-exchange that failed, finding `found`: whether it is to be made again, once
  /// the paused job that holds the word let go of it. A 32-bit word that holds the kernel's
  /// number of a paused job's thread is a `Synchronization.Mutex` that job holds, on Linux: its
  /// slow path would wait in the kernel, blocking the run's only running thread for good.
  func retries(_ operation: InstrumentedAtomic, finding found: UInt64) -> Bool {
    #if os(Linux)
      guard operation.size == 4, !pausing.pausedJobs.isEmpty else { return false }
      // The owner's thread number, without the flags for waiters and a dead owner.
      let owner = Int32(truncatingIfNeeded: found) & 0x3FFF_FFFF
      guard owner > 0, let holder = pausing.pausedJobs.first(where: { $0.host.kernelID == owner })?.task,
        let me = currentTaskID() ?? running.runningStep?.owner, holder != me
      else { return false }
      lockWatch.heldWords[operation.address] = owner
      guard waitPaused(for: holder, holdingWordAt: operation.address, kind: "Mutex", aKind: "a Mutex", waiter: me) else { return false }
      // The compare-exchange made again touches the word again, after the holder let go.
      noteTouch(at: operation.address)
      return true
    #else
      return false
    #endif
  }

  /// After an operation wrote the word: the jobs waiting for a paused holder to let go of it may
  /// try again.
  func wrote(_ operation: InstrumentedAtomic) {
    if !lockWatch.heldWords.isEmpty { letGoOfWordsReleased() }
  }

  /// Lets the jobs waiting for a `Mutex` word whose holder let go of it try again.
  func letGoOfWordsReleased() {
    for (address, owner) in lockWatch.heldWords {
      guard let word = UnsafePointer<Int32>(bitPattern: address), word.pointee & 0x3FFF_FFFF != owner else { continue }
      lockWatch.heldWords[address] = nil
      letGoOfUncontrolledLock(at: address)
    }
  }
}
