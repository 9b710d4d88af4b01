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
  /// How many of the jobs ready lead the list as the strategy was last offered it, less the job it
  /// picked: all the others, as jobs are only ever added at the end, where the last choice took a
  /// job from the list offered whole (or fired a timer); `nil` where the scheduler cannot say so
  /// (a run's first step, a fair step, a main-actor job put back to wait).
  var keptSinceLastChoice: Int?

  /// Empties the queue for another run, keeping its storage.
  mutating func clear() {
    readyJobs.removeAll(keepingCapacity: true)
    readyInfo.removeAll(keepingCapacity: true)
    if !waitingMainActorJobs.isEmpty { waitingMainActorJobs.removeAll(keepingCapacity: true) }
    mainActorJobIsReady = false
    keptSinceLastChoice = nil
    trampolines.removeAll(keepingCapacity: true)
  }

  /// Lets go of the storage a cut run's jobs filled, which may be large.
  mutating func releaseStorage() {
    readyJobs = []
    readyInfo = []
    trampolines = []
  }
}
