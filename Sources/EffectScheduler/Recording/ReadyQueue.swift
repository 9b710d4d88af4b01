/// The jobs ready to run, in the order they became ready, with what the strategy is told of each;
/// and the main actor's, which wait for its stand-in.
struct ReadyQueue {
  var readyJobs: [UnownedJob] = []
  var readyInfo: [ReadyJob] = []
  var trampolines: [UnownedJob] = []
  /// Main-actor jobs that arrived while another was ready, oldest first.
  var waitingMainActorJobs: [(UnownedJob, ReadyJob)] = []
  /// Whether a main-actor job is among the ready jobs; there is at most one.
  var mainActorJobIsReady = false

  /// Empties the queue for another run, keeping its storage.
  mutating func clear() {
    readyJobs.removeAll(keepingCapacity: true)
    readyInfo.removeAll(keepingCapacity: true)
    if !waitingMainActorJobs.isEmpty { waitingMainActorJobs.removeAll(keepingCapacity: true) }
    mainActorJobIsReady = false
    trampolines.removeAll(keepingCapacity: true)
  }

  /// Lets go of the storage a cut run's jobs filled, which may be large.
  mutating func releaseStorage() {
    readyJobs = []
    readyInfo = []
    trampolines = []
  }
}
