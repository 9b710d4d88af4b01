import EffectScheduler

/// Probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010).
///
/// Each run gives every task a random priority and picks d − 1 random change points among the
/// run's expected `k` steps; the ready job with the highest priority always runs, and at the i-th
/// change point the task about to run drops to priority i, below every initial priority. For `n`
/// tasks, a bug of depth `d` shows up in a run with probability at least 1 / (n · k^(d−1)).
///
/// A default actor's job has no task of its own, but it runs the work of a task, so it takes that
/// task's priority: the task it was scheduled for (``ReadyJob/owner``), typically the task that
/// stepped onto the actor, or, for a job scheduled while no task ran, the task of the job that ran
/// before, whose work it carries on. A change point that lands on it lowers that task, which delays the actor's job
/// like any other step of the task. An actor's job no task can be named for (one handed over from
/// outside the scheduler) goes first, since it only runs what is already queued, and a change
/// point that lands on it moves on to the next step.
struct PCTSearch: ExplorationSearch {
  private let depth: Int
  private let expectedSteps: Int
  private var seeds: RunSeeds
  // Per run.
  private var runSeed: UInt64
  private var generator: SeededGenerator
  /// Each task's priority, by its number (tasks are numbered in creation order), 0 for one not
  /// yet seen: a lookup every ready job at every step, which a dictionary's hashing made most of
  /// a run that starts thousands of tasks.
  private var priorities: [UInt64] = []
  private var changePoints: [Int: Int] = [:]
  /// Change points that landed on a job without a task to lower, waiting for the next step.
  private var postponedLevels: [Int] = []
  /// The priority of firing a timer early, in the run under way.
  private var timerPriority: UInt64?

  /// - Parameters:
  ///   - depth: the bug depth d to aim for (at least 1).
  ///   - expectedSteps: k, how many steps a run of the program takes, from a probe run.
  ///   - shard: the share of the runs to make, or `nil` for all of them (see ``RunSeeds``).
  init(depth: Int, schedules: Int, expectedSteps: Int, seed: UInt64, shard: Shard? = nil) {
    self.depth = max(1, depth)
    self.expectedSteps = max(1, expectedSteps)
    seeds = RunSeeds(seed: seed, schedules: schedules, shard: shard)
    runSeed = seed
    generator = SeededGenerator(seed: seed)
  }

  var seed: UInt64? { runSeed }

  mutating func beginRun() -> Bool {
    guard let seed = seeds.nextSeed() else { return false }
    runSeed = seed
    generator = SeededGenerator(seed: runSeed)
    priorities.removeAll(keepingCapacity: true)
    changePoints.removeAll(keepingCapacity: true)
    postponedLevels.removeAll(keepingCapacity: true)
    for level in 1..<depth {
      changePoints[generator.below(expectedSteps)] = level
    }
    timerPriority = nil
    return true
  }

  mutating func nextJob(among ready: [ReadyJob], step: Int) -> Int {
    var best = highestPriority(ready)
    if let level = changePoints[step] { postponedLevels.append(level) }
    while let level = postponedLevels.first, let task = ready[best].owner {
      postponedLevels.removeFirst()
      setPriority(UInt64(level), of: task)
      best = highestPriority(ready)
    }
    return best
  }

  private mutating func highestPriority(_ ready: [ReadyJob]) -> Int {
    var best = 0
    var bestPriority: UInt64 = 0
    for position in ready.indices {
      var priority = UInt64.max
      if ready[position].firesTimer {
        // Firing a timer early ranks like a task, drawn when first offered: when it ranks above
        // the tasks ready, the timer fires.
        if timerPriority == nil { timerPriority = UInt64(depth) + generator.next() % (UInt64.max / 2) }
        priority = timerPriority ?? 0
      } else if let task = ready[position].owner {
        priority = self.priority(of: task)
      }
      if position == 0 || priority > bestPriority {
        best = position
        bestPriority = priority
      }
    }
    return best
  }

  /// A task's priority, drawn when first seen from above the change-point levels.
  private mutating func priority(of task: TaskID) -> UInt64 {
    if priorities.indices.contains(task.rawValue), priorities[task.rawValue] != 0 { return priorities[task.rawValue] }
    let priority = UInt64(depth) + generator.next() % (UInt64.max / 2)
    setPriority(priority, of: task)
    return priority
  }

  private mutating func setPriority(_ priority: UInt64, of task: TaskID) {
    if task.rawValue >= priorities.count { priorities.append(contentsOf: repeatElement(0, count: task.rawValue + 1 - priorities.count)) }
    priorities[task.rawValue] = priority
  }
}
