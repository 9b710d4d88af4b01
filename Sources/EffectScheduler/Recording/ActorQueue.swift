// What a default actor has queued, read from the runtime's record of it.
//
// A default actor keeps the jobs that wait for it in two lists: those enqueued since it last
// looked, newest first, and those it has sorted by priority, oldest first. Each job links to the
// next through its first scheduler-private word. The lists are read at fixed offsets, and only
// where the runtime's layout is the one `TaskWaitReader` checks (64-bit Linux, Swift 6.3.1): the
// actor's status holds the newest enqueued job 40 bytes in, and its sorted queue's heads follow
// 64 bytes in, one a priority bucket, with their tails after them; and only once the probe of
// `RuntimeMechanism.actorQueues` has read an actor with one known job queued as such. Only the
// actor whose job runs on the calling thread is read: it lives, and so does every job its lists hold.

/// The jobs waiting for a default actor.
enum ActorQueue {
  #if os(Linux) && _pointerBitWidth(_64)
    /// The words of an actor that head its lists: the jobs enqueued unsorted, then the sorted
    /// queue's buckets, heads and tails.
    private static let unsortedWord = 5
    private static let sortedWords = 8...13
    private static let sortedHeads = 8...10
    /// The byte offset of a job's link to the next in its list.
    private static let nextJobOffset = 16
    /// The most jobs read from one list: more means the reading went wrong.
    private static let longestList = 100_000
  #endif

  /// Whether the default actor at `address`, whose job runs on the calling thread, has jobs
  /// queued besides the one it runs; `false` where its queue is not verified to be readable
  /// (``RuntimeMechanism/actorQueues``).
  static func hasQueuedJobs(actorAt address: UInt) -> Bool {
    RuntimeCapabilities.current.isOn(.actorQueues) && readHasQueuedJobs(actorAt: address)
  }

  /// ``hasQueuedJobs(actorAt:)``, whether or not its probe verified it: for that probe.
  static func readHasQueuedJobs(actorAt address: UInt) -> Bool {
    #if os(Linux) && _pointerBitWidth(_64)
      guard let actor = UnsafeRawPointer(bitPattern: address) else { return false }
      if actor.load(fromByteOffset: unsortedWord * 8, as: UInt.self) != 0 { return true }
      return sortedWords.contains { actor.load(fromByteOffset: $0 * 8, as: UInt.self) != 0 }
    #else
      return false
    #endif
  }

  /// The jobs queued on the default actor at `address`, whose job runs on the calling thread, in
  /// the order it runs them: those it has sorted, then those enqueued since, oldest first. Empty
  /// where its queue is not verified to be readable (``RuntimeMechanism/actorQueues``).
  static func queuedJobs(actorAt address: UInt) -> [UnownedJob] {
    RuntimeCapabilities.current.isOn(.actorQueues) ? readQueuedJobs(actorAt: address) : []
  }

  /// ``queuedJobs(actorAt:)``, whether or not its probe verified it: for that probe.
  static func readQueuedJobs(actorAt address: UInt) -> [UnownedJob] {
    #if os(Linux) && _pointerBitWidth(_64)
      guard let actor = UnsafeRawPointer(bitPattern: address) else { return [] }
      var jobs: [UnownedJob] = []
      for word in sortedHeads { appendList(at: actor.load(fromByteOffset: word * 8, as: UInt.self), to: &jobs) }
      var unsorted: [UnownedJob] = []
      appendList(at: actor.load(fromByteOffset: unsortedWord * 8, as: UInt.self), to: &unsorted)
      return jobs + unsorted.reversed()
    #else
      return []
    #endif
  }

  #if os(Linux) && _pointerBitWidth(_64)
    /// Appends the jobs of the list whose first job is at `first` to `jobs`.
    private static func appendList(at first: UInt, to jobs: inout [UnownedJob]) {
      var next = first
      var read = 0
      while next != 0, next % 8 == 0, read < longestList, let job = UnsafeRawPointer(bitPattern: next) {
        jobs.append(unsafeBitCast(job, to: UnownedJob.self))
        next = job.load(fromByteOffset: nextJobOffset, as: UInt.self)
        read += 1
      }
    }
  #endif
}
