import EffectScheduler

/// The check of what the reduction assumes but cannot see: two steps of different tasks that both
/// ran code outside any actor, and touched nothing in common that the scheduler saw, are taken as
/// independent, yet they may share a `Mutex`, an atomic or an unchecked `Sendable` class.
///
/// Each such pair met for the first time (by task and by how many steps of its task came before,
/// so the same pair in another run is the same pair) is tried once the other way round: a probe
/// run follows the run it was found in up to the first step, runs there the steps between that
/// the second depends on and the second, then the first, then every other step in the order it
/// had (a job not ready when its turn comes waits for the first that is). When the steps commute,
/// each task does the same things (``events(of:)``) and the run ends the same way; when anything
/// differs, the pair shared something unseen, and the search cannot claim it tried every schedule. A probe is a real run:
/// the explorer judges it, so a failure it leads to is reported like any other.
///
/// Swapping each pair once is a test, not a proof: a race among three or more steps on unseen
/// state, or one whose other order changes only data that no task acts on, may still be missed.
struct SwapProbes {
  /// A pair of steps, each by its thread and how many steps of that thread came before it.
  struct Pair: Hashable {
    let first: StepAccesses.Thread
    let firstIndex: Int
    let second: StepAccesses.Thread
    let secondIndex: Int
  }

  /// A probe run to make.
  struct Probe {
    /// The choices up to the first step of the pair (`steps`): the ready jobs of each step, and
    /// the position taken. The lists are the whole run's, shared with the analysis rather than
    /// copied: the probes of a run are made before the search's next run is analysed.
    let prefix: (ready: ReadyLists, chosen: [Int], steps: Int)
    /// The jobs to run from there, in order: the steps between the two that the second depends
    /// on, the second step's, the first step's, then the others of the run the pair was found in.
    let expected: [ReadyJob]
    /// How the run the pair was found in ended, and what each of its tasks did.
    let finished: Bool
    let events: Int
    /// The pair, put in words only if the probe changes what follows.
    let pair: PairInWords
  }

  /// Two steps, each with its thread and, for a task's, the task, put in words when asked:
  /// `step 3 of #1 (first) and step 5 of #2 (second)`. Most probes change nothing, and their
  /// pairs are never put in words.
  struct PairInWords: CustomStringConvertible {
    let steps: (first: Int, second: Int)
    let threads: (first: StepAccesses.Thread, second: StepAccesses.Thread)
    let tasks: (first: TaskInfo?, second: TaskInfo?)

    init(_ i: Int, _ j: Int, of accesses: StepAccesses, trace: Trace) {
      steps = (i, j)
      threads = (accesses.threads[i], accesses.threads[j])
      func task(_ thread: StepAccesses.Thread) -> TaskInfo? {
        guard case .task(let id) = thread else { return nil }
        return trace[task: id]
      }
      tasks = (task(threads.first), task(threads.second))
    }

    var description: String {
      func name(_ thread: StepAccesses.Thread, _ task: TaskInfo?) -> String {
        guard case .task(let id) = thread else { return "\(thread)" }
        // Put in words when the search ends, within its time budget.
        return task?.descriptionWithoutOrigin ?? "\(id)"
      }
      return "step \(steps.first) of \(name(threads.first, tasks.first)) and step \(steps.second) of \(name(threads.second, tasks.second))"
    }
  }

  /// Probe runs allowed beyond one a run of the search.
  static let head = 64

  private var met: Set<Pair> = []
  private let tree: SharedReducedTree?
  private var pending: [Probe] = []
  /// The probe under way, and the step at which it first went its own way, if it has.
  private var current: Probe?
  /// The probe's expected jobs not run yet.
  private var remaining: [ReadyJob] = []
  private var currentFinished = false
  /// For ``findPairs(in:order:ready:chosen:trace:finished:from:)``, each step's index among its
  /// thread's steps, and the count of each thread's: kept from run to run for their storage.
  private var indexInThread: [Int] = []
  private var countsInThread: [Int] = []
  /// Kept from run to run for their storage: the steps that started a task, and what each task
  /// did (``events(of:)``).
  private var spawnSteps: [Int] = []
  private var eventsByTask: [UInt64] = []
  /// The check so far, but for the first pair taken as independent unseen, kept in
  /// ``firstAssumed`` and put in words only when the check is read (``check``).
  private(set) var counts = ReductionCheck()
  private var firstAssumed: PairInWords?

  /// How the search checked what it assumed, so far.
  var check: ReductionCheck {
    var check = counts
    if check.firstAssumedPair == nil { check.firstAssumedPair = firstAssumed?.description }
    return check
  }

  /// - Parameters:
  ///   - assumesNoUnseenSharing: whether the exploration assumes the tasks share no state the
  ///     scheduler cannot see (``ExploreConfiguration/assumesNoUnseenSharing``).
  ///   - tree: in a search several searchers share, its tree, which knows the pairs every
  ///     searcher met, so that each pair is counted and tried once.
  init(assumesNoUnseenSharing: Bool = false, sharing tree: SharedReducedTree? = nil) {
    counts.assumesNoUnseenSharing = assumesNoUnseenSharing
    self.tree = tree
  }

  /// Whether a probe run is under way.
  var probing: Bool { current != nil }

  /// Starts the next probe if there is one and the search's `runs` allow it.
  mutating func beginProbe(runs: Int) -> Bool {
    guard !pending.isEmpty, counts.swapsTried < runs + Self.head else { return false }
    current = pending.removeFirst()
    remaining = current?.expected ?? []
    currentFinished = false
    return true
  }

  /// The position to take at `step` of the probe under way: the prefix's, then each job in the
  /// order expected, or where it is not ready, the first ready one still expected, or else an
  /// extra one (a task that now waits for what it found done before, say).
  mutating func nextJob(among ready: [ReadyJob], step: Int) throws -> Int {
    guard let probe = current else { return 0 }
    if step < probe.prefix.steps {
      let chosen = probe.prefix.chosen[step]
      try ReplayDivergence.check(ready, areAsBefore: probe.prefix.ready[step], whichTook: chosen, atStep: step)
      return chosen
    }
    for (turn, job) in remaining.enumerated() {
      if let position = ready.firstIndex(of: job) {
        remaining.remove(at: turn)
        return position
      }
    }
    return 0
  }

  mutating func runDidFinish() { currentFinished = true }

  /// Ends the probe under way: compares how it ended and what each task did with the run it came
  /// from.
  mutating func probeDidEnd(trace: Trace) {
    guard let probe = current else { return }
    current = nil
    counts.swapsTried += 1
    guard currentFinished != probe.finished || events(of: trace) != probe.events else { return }
    counts.swapsChanged += 1
    if counts.firstChange == nil { counts.firstChange = "\(probe.pair): in the other order, what followed changed" }
  }

  /// Finds the pairs of the run just made, given by the ready jobs and the position chosen at
  /// each step, that the reduction took as independent without seeing what they share, and
  /// queues a probe for each pair met first. Pairs whose second step comes before `from` were
  /// met in the run before, whose steps were the same up to there.
  mutating func findPairs(
    in accesses: StepAccesses, order: HappensBefore, ready: ReadyLists, chosen: [Int], trace: Trace, finished: Bool, from: Int = 0
  ) {
    let steps = chosen.count
    // Where the run's memory was followed, the race search saw what the steps share.
    if accesses.memory.followed { counts.followedAccesses = true }
    guard steps == accesses.threads.count, !accesses.memory.followed else { return }
    indexInThread.removeAll(keepingCapacity: true)
    countsInThread.removeAll(keepingCapacity: true)
    countsInThread.append(contentsOf: repeatElement(0, count: order.threadCount))
    for thread in order.thread {
      indexInThread.append(countsInThread[thread])
      countsInThread[thread] += 1
    }
    // The steps that started a task, and what each task did, worked out once a pair is new.
    var spawnsFound = false
    var events: Int?
    for j in from..<steps where Self.runsProgramCode(j, accesses) {
      var i = j - 1
      while i >= 0, accesses.position(atStep: i, ofJobRunAt: j) != nil {
        defer { i -= 1 }
        guard Self.runsProgramCode(i, accesses), accesses.threads[i] != accesses.threads[j], !order.precedes(i, j) else {
          continue
        }
        let pair = Pair(first: accesses.threads[i], firstIndex: indexInThread[i], second: accesses.threads[j], secondIndex: indexInThread[j])
        guard tree?.meet(pair) ?? met.insert(pair).inserted else { continue }
        // Put in words only where a report needs it: most pairs are never reported.
        if firstAssumed == nil { firstAssumed = PairInWords(i, j, of: accesses, trace: trace) }
        guard Self.runsTaskCodeOutsideActors(i, accesses), Self.runsTaskCodeOutsideActors(j, accesses) else {
          counts.actorJobPairs += 1
          continue
        }
        counts.assumedPairs += 1
        // Moving a step that starts a task before others that do would renumber the tasks.
        if !spawnsFound {
          spawnsFound = true
          spawnSteps.removeAll(keepingCapacity: true)
          for event in trace.events where event.kind == .spawned { spawnSteps.append(event.step) }
        }
        guard !spawnSteps.contains(j) || !spawnSteps.contains(where: { (i..<j).contains($0) }) else { continue }
        let job = { (step: Int) in ready[step, chosen[step]] }
        // The steps between that `j` depends on go first: none depends on `i`, or `j` would.
        var expected: [ReadyJob] = []
        expected.reserveCapacity(steps - i)
        for step in i + 1..<j where order.precedes(step, j) { expected.append(job(step)) }
        expected.append(job(j))
        expected.append(job(i))
        for step in i + 1..<steps where step != j && !order.precedes(step, j) { expected.append(job(step)) }
        if events == nil { events = self.events(of: trace) }
        pending.append(
          Probe(
            prefix: (ready, chosen, i), expected: expected, finished: finished, events: events ?? 0,
            pair: PairInWords(i, j, of: accesses, trace: trace)))
      }
    }
  }

  /// The pairs met that no probe has tried yet, when the search ends.
  mutating func searchDidEnd() {
    counts.unchecked = counts.assumedPairs - counts.swapsTried
  }

  /// Whether the step ran the program's code, a task's or an actor's, which may touch state the
  /// scheduler cannot see: an actor's method may take a `Mutex` as much as a task's code outside
  /// actors may. Steps of one actor are one thread, and two steps on the main actor touch it both.
  private static func runsProgramCode(_ step: Int, _ accesses: StepAccesses) -> Bool {
    switch accesses.threads[step] {
    case .task, .actor: !accesses.touchesEverything[step]
    case .unplaced, .clock: false
    }
  }

  /// Whether the step ran a task's code outside any actor: a pair of such steps is tried the
  /// other way round.
  private static func runsTaskCodeOutsideActors(_ step: Int, _ accesses: StepAccesses) -> Bool {
    guard case .task = accesses.threads[step] else { return false }
    return accesses.outsideActors[step] && !accesses.touchesEverything[step]
  }

  /// What each task did, as one number: the same in two runs whose tasks did the same things in
  /// the same order. A task's own steps do not count, as a task that finds another not yet done
  /// waits for it where in the other order it went on at once; what counts is what it starts,
  /// whether it completes or is cancelled, how many actor jobs run its work, and its notes.
  private mutating func events(of trace: Trace) -> Int {
    // Each task's events folded in order into one number of its own, by task number (0 for a
    // task with none), without a list of them or a hasher a task; an event's kind as a small
    // number, not its name. The list is kept from call to call for its storage.
    var byTask = Array.takingStorage(of: &eventsByTask)
    defer { eventsByTask = byTask }
    byTask.append(contentsOf: repeatElement(0, count: trace.tasks.count))
    func add(_ task: TaskID, _ value: UInt64) {
      if task.rawValue >= byTask.count { byTask.append(contentsOf: repeatElement(0, count: task.rawValue + 1 - byTask.count)) }
      byTask[task.rawValue] = Self.mix(byTask[task.rawValue], value)
    }
    for event in trace.events {
      switch (event.kind, event.task) {
      case (.spawned, let task?): add(task, 1)
      case (.completed, let task?): add(task, 2)
      case (.cancelled, let task?): add(task, 3)
      case (.actorJob, _):
        if let tasks = trace.actorJobTasks[event.step] {
          for task in tasks { add(task, 4) }
        } else if let task = event.scheduledBy {
          add(task, 4)
        }
      default: continue
      }
    }
    for note in trace.notes { add(note.task, UInt64(bitPattern: Int64(note.text.hashValue))) }
    var hasher = Hasher()
    for (task, events) in byTask.enumerated() where events != 0 {
      hasher.combine(task)
      hasher.combine(events)
    }
    return hasher.finalize()
  }

  /// Folds `value` into `state`: a multiply and shifts in the manner of SplitMix64, so that two
  /// different sequences of values end in the same number about once in 2⁶⁴.
  static func mix(_ state: UInt64, _ value: UInt64) -> UInt64 {
    var x = (state ^ value) &+ 0x9E37_79B9_7F4A_7C15
    x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
    x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
    x ^= x >> 31
    // Never 0, which stands for a task with no events.
    return x == 0 ? 1 : x
  }
}
