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
  /// How many of the jobs waiting (ready, held back or waiting for the main actor) are of tasks
  /// that keep time (see TimingAssumption.swift): kept as jobs come and go, so that whether a
  /// timer may fire early costs no look at every ready job each step.
  var timedJobs = 0

  /// Empties the queue for another run, keeping its storage.
  mutating func clear() {
    readyJobs.removeAll(keepingCapacity: true)
    readyInfo.removeAll(keepingCapacity: true)
    if !waitingMainActorJobs.isEmpty { waitingMainActorJobs.removeAll(keepingCapacity: true) }
    mainActorJobIsReady = false
    keptSinceLastChoice = nil
    timedJobs = 0
    trampolines.removeAll(keepingCapacity: true)
  }

  /// Lets go of the storage a cut run's jobs filled, which may be large.
  mutating func releaseStorage() {
    readyJobs = []
    readyInfo = []
    timedJobs = 0
    trampolines = []
  }
}
