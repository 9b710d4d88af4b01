import EffectScheduler

/// The jobs ready at each step of a run, one step's list after another in one buffer.
///
/// The analysis of a run reads every step's list. Gathered as an array of the choice points'
/// own lists, each run retained and released every one of them, about 3% of a reduced search of
/// group children; kept in one buffer, the lists of the steps a run shares with the one before
/// stay as they are, and only the new steps' jobs are copied in.
struct ReadyLists: Equatable {
  private var jobs: [ReadyJob] = []
  /// Where each step's list begins in ``jobs``, and where the last one ends.
  private var starts: [Int] = [0]

  /// No lists.
  init() {}

  /// The lists of `lists`, in order.
  init(_ lists: some Sequence<[ReadyJob]>) {
    for list in lists { append(list) }
  }

  /// How many steps' lists there are.
  var count: Int { starts.count - 1 }

  /// The job at `position` among those ready at `step`.
  subscript(step: Int, position: Int) -> ReadyJob { jobs[starts[step] + position] }

  /// The jobs ready at `step`.
  subscript(step: Int) -> ArraySlice<ReadyJob> { jobs[starts[step]..<starts[step + 1]] }

  /// Calls `body` with the jobs of every list, one after another, and where each step's list
  /// begins in them (with the end of the last at the end): a pass over every step reads them so
  /// without a slice, nor its retain and release, for each list.
  func withBuffers<Result>(_ body: (_ jobs: UnsafeBufferPointer<ReadyJob>, _ starts: UnsafeBufferPointer<Int>) -> Result) -> Result {
    jobs.withUnsafeBufferPointer { jobs in starts.withUnsafeBufferPointer { starts in body(jobs, starts) } }
  }

  /// Adds the next step's list.
  mutating func append(_ list: [ReadyJob]) {
    jobs.append(contentsOf: list)
    starts.append(jobs.count)
  }

  /// Keeps the lists of the first `steps` steps only.
  mutating func truncate(to steps: Int) {
    guard steps < count else { return }
    jobs.removeLast(jobs.count - starts[steps])
    starts.removeLast(starts.count - steps - 1)
  }
}
