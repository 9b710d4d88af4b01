import EffectScheduler

/// A depth-first search that runs one schedule of each class of equivalent schedules rather than
/// every schedule: dynamic partial-order reduction, in its source-set form.
///
/// Each run first follows the path of the run before up to the deepest choice point with an
/// option still to try, takes it, and then always the first ready job. After the run, the
/// oracle works out what each step touched (``StepAccesses``) and, for every race of the run,
/// makes sure that one option that starts the race's other order is tried at the first step's
/// choice point. Two schedules that differ only in the order of steps that touch nothing in
/// common are equivalent, so the search never needs to try both.
///
/// What it rests on: the program's tasks share state only through actors (the main actor among
/// them) and through what the scheduler sees: tasks waking each other up (a continuation resumed,
/// a task completed, a task cancelled, an element delivered), structured children completing,
/// and notes such as those of streams made with `.effect`. State shared between tasks any other
/// way, through a lock, an atomic or an unchecked `Sendable` type touched outside an actor, is
/// invisible to it, and a race on it may be tried in one order only.
struct ReducedDepthFirstOracle: ExplorationOracle {
  /// A choice point of the current path.
  private struct Node {
    let ready: [ReadyJob]
    var chosen: Int
    /// The positions tried here, or about to be.
    var tried: Set<Int>
    /// The positions still to try here.
    var toTry: Set<Int> = []
  }

  private var path: [Node] = []
  private var started = false
  private var finished = false
  private var stepsThisRun = 0
  /// Whether the run under way finished, rather than ending stuck or failing.
  private var finishedRun = false

  var exhaustedSchedules: Bool { finished }
  var learnsFromTraces: Bool { true }

  mutating func beginRun() -> Bool {
    stepsThisRun = 0
    finishedRun = false
    guard started else {
      started = true
      return true
    }
    while let last = path.last {
      if let next = last.toTry.min() {
        path[path.count - 1].toTry.remove(next)
        path[path.count - 1].tried.insert(next)
        path[path.count - 1].chosen = next
        return true
      }
      path.removeLast()
    }
    finished = true
    return false
  }

  mutating func nextJob(among ready: [ReadyJob], step: Int) throws -> Int {
    stepsThisRun = step + 1
    guard step < path.count else {
      path.append(Node(ready: ready, chosen: 0, tried: [0]))
      return 0
    }
    // The same choices so far must lead to the same ready jobs, or the program is not
    // deterministic and the search would miss or repeat schedules.
    guard path[step].ready == ready else {
      let node = path[step]
      throw ReplayDivergence(step: step, expected: ScheduleChoice(picking: node.ready[node.chosen], at: node.chosen), ready: ready)
    }
    return path[step].chosen
  }

  mutating func runDidFinish(steps: Int) throws {
    finishedRun = true
  }

  /// Adds the options that reverse the run's races to the choice points where they start.
  mutating func runDidEnd(trace: Trace) {
    if path.count > stepsThisRun { path.removeLast(path.count - stepsThisRun) }
    guard let accesses = StepAccesses(ready: path.map(\.ready), chosen: path.map(\.chosen), trace: trace, leftWaiting: !finishedRun) else {
      // A run the model cannot follow: every option of every choice point of it is tried.
      for index in path.indices { path[index].toTry = Set(path[index].ready.indices).subtracting(path[index].tried) }
      return
    }
    for reversal in accesses.reversals() {
      let node = path[reversal.step]
      guard !reversal.options.contains(where: { node.tried.contains($0) || node.toTry.contains($0) }) else { continue }
      path[reversal.step].toTry.insert(reversal.options[0])
    }
  }
}
