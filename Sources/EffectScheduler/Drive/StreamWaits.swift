import Synchronization

/// Tells a task waiting for an `AsyncStream`'s or `AsyncThrowingStream`'s next element from one
/// waiting on any other continuation.
///
/// Both wait on a continuation (see ``TaskWait``); what differs is the function the continuation
/// resumes, which for a stream's iterator lies in the standard library, the same for every stream.
/// Those functions are private, so they are learned by watching: the first time a report asks,
/// one task parks on each kind of stream, its continuation's resume function is read, and the
/// stream is finished so the task ends. The task runs on an executor of its own whose jobs run on
/// the calling thread, so learning takes no waiting and no thread of the global pool. Where the
/// reader cannot read waits at all, nothing is learned and no wait counts as a stream's.
enum StreamWaits {
  /// Whether a continuation that resumes `resumeFunction` is a stream's iterator waiting.
  static func isStreamWait(resumeFunction: UInt) -> Bool {
    streamResumeFunctions.contains(resumeFunction)
  }

  private static let streamResumeFunctions: [UInt] = {
    let plain = AsyncStream.makeStream(of: Int.self)
    let throwing = AsyncThrowingStream.makeStream(of: Int.self)
    return [
      resumeFunction(ofTaskParkedBy: { for await _ in plain.stream {} }, release: { plain.continuation.finish() }),
      resumeFunction(ofTaskParkedBy: { _ = try? await throwing.stream.first { _ in true } }, release: { throwing.continuation.finish() }),
    ].compactMap { $0 }
  }()

  /// Runs a task that runs `park` until it suspends, reads what its continuation resumes, then
  /// lets it go on to its end.
  private static func resumeFunction(
    ofTaskParkedBy park: @escaping @Sendable () async -> Void, release: () -> Void
  ) -> UInt? {
    let executor = InlineExecutor()
    let task = Mutex<(address: UInt, id: UInt64)?>(nil)
    _ = Task(executorPreference: executor) {
      withUnsafeCurrentTask { current in
        guard let current else { return }
        let job = unsafeBitCast(current, to: UnownedJob.self)
        task.withLock { $0 = (UInt(bitPattern: unsafeBitCast(current, to: UnsafeRawPointer.self)), runtimeTaskID(job)) }
      }
      await park()
    }
    executor.runJobs()
    defer {
      release()
      executor.runJobs()
    }
    guard let (address, id) = task.withLock({ $0 }),
      case .continuation(let resumeFunction) = TaskWaitReader.wait(ofTaskAt: address, runtimeID: id)
    else { return nil }
    return resumeFunction
  }
}

/// A task executor that runs its jobs when asked, on the thread that asks.
private final class InlineExecutor: TaskExecutor, @unchecked Sendable {
  private let jobs = Mutex<[UnownedJob]>([])

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    jobs.withLock { $0.append(job) }
  }

  /// Runs jobs until none is left.
  func runJobs() {
    while let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}
