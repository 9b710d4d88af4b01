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
  /// The jobs ready at the step before, by priority, less the one it ran.
  private var ready = ReadyPriorities()

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
    ready.removeAll()
    return true
  }

  mutating func nextJob(among ready: [ReadyJob], step: Int) -> Int {
    nextJob(among: ready, step: step, kept: nil)
  }

  /// Picks the job of highest priority, as a look through `ready` in order would, the earliest
  /// among equals, a task's priority drawn when it is first seen. Told by the scheduler that the
  /// first `kept` jobs are those of the step before less the one that ran, it adds only the others
  /// to ``ReadyPriorities``; otherwise it lists them all again.
  mutating func nextJob(among jobs: [ReadyJob], step: Int, kept: Int?) -> Int {
    let offersTimer = jobs.last?.firesTimer == true
    let real = jobs.count - (offersTimer ? 1 : 0)
    var from = 0
    if let kept, kept == ready.count, kept <= real {
      from = kept
    } else {
      ready.removeAll()
    }
    for job in jobs[from..<real] {
      ready.add(owner: job.owner, priority: job.owner.map { priority(of: $0) } ?? .max)
    }
    // Firing a timer early ranks like a task, drawn when first offered, after the jobs before it.
    if offersTimer, timerPriority == nil { timerPriority = UInt64(depth) + generator.next() % (UInt64.max / 2) }
    var best = highestPriority(among: jobs, offersTimer: offersTimer)
    if let level = changePoints[step] { postponedLevels.append(level) }
    while let level = postponedLevels.first, let task = jobs[best.position].owner {
      postponedLevels.removeFirst()
      setPriority(UInt64(level), of: task)
      ready.reprioritize(task, to: UInt64(level))
      best = highestPriority(among: jobs, offersTimer: offersTimer)
    }
    if let slot = best.slot { ready.remove(slot: slot) }
    return best.position
  }

  /// The position of the job of highest priority among `jobs`, the timer's choice last among
  /// them when offered, and its slot in ``ready`` (`nil` for the timer).
  private mutating func highestPriority(among jobs: [ReadyJob], offersTimer: Bool) -> (position: Int, slot: Int?) {
    let top = ready.best { owner in owner.map { priorities[$0.rawValue] } ?? .max }
    // The timer's choice is offered last: it goes first only when strictly higher.
    if offersTimer, top.map({ timerPriority! > $0.priority }) ?? true { return (jobs.count - 1, nil) }
    return top.map { ($0.position, $0.slot) } ?? (0, nil)
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
