import EffectScheduler

/// What each step of one run touched, as far as the scheduler can tell, and which step made each
/// step's job ready: the raw material of partial-order reduction (see ``ReducedDepthFirstOracle``).
///
/// The independence relation, in one place: two steps of different threads are dependent exactly
/// when they touch a common ``Object``, one of them touches everything, or one fires a timer early
/// and the other affects a timer (``StepFootprint/conflicts(with:)`` says it for two steps, and
/// the search for races finds the same pairs through an index); and a move of the virtual clock
/// orders every step before it before every step after, unless the run could still fire a timer
/// early; then a step that affects a timer races with the beginning of the sleep the move ends,
/// where that beginning could have come first; and a move that only fired a timer due at the
/// instant the clock was at already orders nothing. What each kind of operation touches:
///
/// | operation | touches |
/// | --- | --- |
/// | a task's step outside actors | its task (every step may read the task's cancelled flag), and the locks it takes |
/// | an actor's or the main actor's job | the actor, the tasks whose work it runs, and the locks it takes |
/// | hopping onto a busy actor | the actor (the job lists it as queued; elsewhere every step until the job runs) |
/// | spawning a task, `async let`, `addTask` | nothing more: the child's first job is made ready by this step, so it comes after |
/// | completing a task awaited, a child collected | the waiting task; a task's last step, and every later step of the task that made it (which may find it completed without waiting), its completion; a structured child's last step, and every step of its parent, the parent's children |
/// | `cancel()`, `cancelAll()`, an `async let` left behind, a parent's cancellation | the cancelled task, at the step that set its flag; its handler runs in that step |
/// | reading another task's `isCancelled` through its handle | that task (through the program's slots for `swift_task_isCancelled`, 64-bit Linux; elsewhere unseen) |
/// | resuming a continuation, waking a sleep | the task it wakes |
/// | a stream's `yield`, `next`, `finish`, termination | the stream's buffer lock (every buffering policy); a delivery to a test script, the notes |
/// | `NSLock`, a `pthread_mutex_t`, a `pthread_rwlock_t` (taken, tried or taken with a deadline; read or written) | that lock |
/// | beginning a sleep due at the same instant as another | the timers due then, which fire in the order they were set |
/// | a sleep's wake-up when the clock moves | a barrier, unless a timer could have fired early in the steps before: then only the steps that affect a timer come before it; none, when the wake-up is of a timer due at the instant the clock was at already (it could have fired at any step since the clock got there, where it was offered) |
/// | a timer fired early (``ReadyJob/timer``) | the tasks it wakes; it depends on every step that affects a timer |
/// | a timer fired when due, after another due at the same instant | its sleeping task and the timers due then; a step where it was pending that touches either could have come after it |
/// | reading the clock, beginning a sleep, any step of a task that did, any step of a task cancelled in the run, waking or starting another task | affects a timer: which tasks a timer fired early delays, whether one may fire, and which fires (and which of a cancelled task's jobs is the first since the delay, where the run is cut) |
/// | a job from outside (another thread, a test script's answer) | everything |
/// | `Mutex`, atomics, unchecked `Sendable` state | unseen: guessed at by ``Object/outsideActors(_:)`` and, unless the exploration assumes no unseen sharing, ``Object/seenBeforeHop(step:)`` |
///
/// It is worked out after the run from the ready jobs of every choice and the run's trace. A job
/// stays in the ready list until it runs, and the jobs that became ready during a step are added
/// at the end, so following the list from one choice to the next tells which step made each job
/// ready, and at which later step it ran. The races are then found from these facts
/// (``RacePass``), from the first step whose facts differ from the run analysed before.
///
/// A class whose facts are fixed once it is made (hence `@unchecked Sendable`, and its properties
/// left unchecked for exclusive access): the analysis hands one run's facts around several times,
/// and the race search keeps them to compare with the next run's. As a value of some twenty
/// arrays, its copies and their releases took about a sixth of the analysis of a run.
final class StepAccesses: @unchecked Sendable {
  /// What runs a step's job, one step after another: a task, or an actor for an actor's job.
  enum Thread: Hashable, CustomStringConvertible {
    case task(TaskID)
    /// An actor, numbered as ``Object/actor(_:)`` numbers it.
    case actor(Int)
    /// A job the scheduler cannot place, which is its own thread.
    case unplaced(step: Int)
    /// Timers fired early, one after another.
    case clock

    /// `task(#1)`, `actor(0)`, `unplaced(step: 3)` or `clock`: written out, since describing an
    /// enum by reflection costs a search more than analysing a short run.
    var description: String {
      switch self {
      case .task(let task): "task(\(task))"
      case .actor(let actor): "actor(\(actor))"
      case .unplaced(let step): "unplaced(step: \(step))"
      case .clock: "clock"
      }
    }
  }

  /// The thread of each step.
  @exclusivity(unchecked) private(set) var threads: [Thread] = []
  /// What each step touched.
  @exclusivity(unchecked) private(set) var objects: [ObjectSet] = []
  /// Steps that may have touched anything: jobs from outside the scheduler's control.
  @exclusivity(unchecked) private(set) var touchesEverything: [Bool] = []
  /// Steps that ran a task's code outside any actor, where it may touch state the scheduler
  /// cannot see.
  @exclusivity(unchecked) private(set) var outsideActors: [Bool] = []
  /// The step during which each step's job became ready, or `nil` when it was ready before the
  /// first step or arrived from outside.
  @exclusivity(unchecked) private(set) var enabledBy: [Int?] = []
  /// Each ready job of each step, followed from choice to choice: where it ran (see
  /// ``position(atStep:ofJobRunAt:)``).
  @exclusivity(unchecked) private var jobs = FollowedJobs()
  /// The steps before which the virtual clock moved on, in order. The clock moves only when no
  /// job is ready, so every step before such a step comes before every step from it on, in any
  /// schedule: the jobs made ready then are the wake-ups of sleeps, which no step made ready.
  @exclusivity(unchecked) private(set) var clockSteps: [Int] = []
  /// The steps before which the clock moved on while the run could still fire a timer early: such
  /// a move is no barrier, since in another order of the steps before, the timer could have fired
  /// before any of them that does not affect it.
  @exclusivity(unchecked) private(set) var movableClockSteps: Set<Int> = []
  /// For each step, the position of the choice to fire a timer early among its ready jobs, if
  /// offered.
  @exclusivity(unchecked) private(set) var timerPositions: [Int?] = []
  /// The steps that fired a timer, early or due (``ReadyJob/timer``).
  @exclusivity(unchecked) private(set) var firesTimer: [Bool] = []
  /// The steps that fired a timer early: those that moved the clock.
  @exclusivity(unchecked) private(set) var firesEarlyTimer: [Bool] = []
  /// The steps at which the timer offered was due already, with the timers due then.
  @exclusivity(unchecked) private(set) var dueTimers = DueTimers()
  /// The steps before which a timer due at the instant the clock was at already fired, when no
  /// job was ready or at the strategy's pick: no move of the clock.
  @exclusivity(unchecked) private(set) var sameInstantClockSteps: Set<Int> = []
  /// The steps that affect a timer fired early: read the clock or began a sleep, ran a task that
  /// had or a task cancelled in the run, or made another task's job ready (a timer fired before
  /// the step would have delayed it).
  @exclusivity(unchecked) private(set) var affectsTimer: [Bool] = []
  /// For each step whose job the clock's move made ready, the step before which it moved.
  @exclusivity(unchecked) private(set) var enabledByClock: [Int?] = []

  // What the passes work out on the way, kept so that filling the facts again reuses the arrays.
  /// The job each step ran.
  @exclusivity(unchecked) private var jobRun: [ReadyJob] = []
  /// By step, whether the clock moved on before it; one more entry than steps.
  @exclusivity(unchecked) private var movesClock: [Bool] = []
  /// The event that began each step's job (``noteExecutedEvents(_:steps:)``).
  @exclusivity(unchecked) private var executed: [TraceEvent?] = []
  /// The tasks whose work each step ran (``recordOwnWork(trace:)``).
  @exclusivity(unchecked) private var ownTasks = StepLists()
  @exclusivity(unchecked) private var scratch = Scratch()

  /// Works out the steps of a run from the ready jobs of each of its choices, the positions
  /// picked and the run's trace; `nil` when they do not fit together, as after a run that ended
  /// early. `leftWaiting` says whether the run ended stuck, with tasks still waiting.
  /// `assumesNoUnseenSharing` says whether the exploration assumes the tasks share no state the
  /// scheduler cannot see (``ExploreConfiguration/assumesNoUnseenSharing``): then what a task saw
  /// outside actors before it hopped is not kept dependent with other tasks' steps
  /// (``Object/seenBeforeHop(step:)``), a guess at unseen state that the assumption rules out.
  ///
  /// A timer fired early (``ReadyJob/timer``) is a step of the ``Thread/clock``, and a move of
  /// the clock while the run could still fire one is no barrier (``movableClockSteps``).
  convenience init?(ready: ReadyLists, chosen: [Int], trace: Trace, leftWaiting: Bool, assumesNoUnseenSharing: Bool = false) {
    self.init()
    guard fill(ready: ready, chosen: chosen, trace: trace, leftWaiting: leftWaiting, assumesNoUnseenSharing: assumesNoUnseenSharing) else { return nil }
  }

  /// Facts of no steps, to be filled (``fill(ready:chosen:trace:leftWaiting:assumesNoUnseenSharing:)``).
  init() {}

  /// Works out the steps of a run, as ``init(ready:chosen:trace:leftWaiting:assumesNoUnseenSharing:)``
  /// does, in place of the facts held: the arrays keep their storage, so an instance filled run
  /// after run allocates almost nothing once it has held a run as long. Returns whether the
  /// ready jobs, the choices and the trace fit together; the facts are then those of the run.
  /// Only an instance nothing else holds is filled again: its facts are fixed for anyone who does.
  ///
  /// `previous`, the facts of the run before, whose first `shared` steps made the same choices from
  /// the same ready jobs, saves following those steps' jobs again (see ``followJobs(ready:chosen:resumingFrom:sharing:)``).
  func fill(
    ready: ReadyLists, chosen: [Int], trace: Trace, leftWaiting: Bool, assumesNoUnseenSharing: Bool = false, resumingFrom previous: StepAccesses? = nil,
    sharing shared: Int = 0
  ) -> Bool {
    let steps = chosen.count
    guard ready.count == steps, trace.steps >= steps else { return false }
    var timerPositions = Array.takingStorage(of: &self.timerPositions)
    var jobRun = Array.takingStorage(of: &self.jobRun)
    var firesTimer = Array.takingStorage(of: &self.firesTimer)
    // The job each step ran, looked up once: every pass below reads it. Read from the lists'
    // buffers into local arrays put back after: through the lists and the stored arrays, each
    // step's reads and appends cost about 2% of the analysis of a short run more.
    let picked = ready.withBuffers { lists, starts in
      for step in 0..<steps {
        let (start, end) = (starts[step], starts[step + 1])
        guard chosen[step] >= 0, chosen[step] < end - start else { return false }
        let job = lists[start + chosen[step]]
        timerPositions.append(lists[end - 1].firesTimer ? end - start - 1 : nil)
        jobRun.append(job)
        firesTimer.append(job.firesTimer)
      }
      return true
    }
    self.timerPositions = timerPositions
    self.jobRun = jobRun
    self.firesTimer = firesTimer
    guard picked else { return false }
    dueTimers.fill(trace, steps: steps)
    firesEarlyTimer.removeAll(keepingCapacity: true)
    for step in 0..<steps { firesEarlyTimer.append(firesTimer[step] && !dueTimers.hasOffer(at: step)) }
    sameInstantClockSteps.removeAll(keepingCapacity: true)
    sameInstantClockSteps.formUnion(trace.dueTimerFirings)
    clockSteps.removeAll(keepingCapacity: true)
    if !trace.clockAdvances.isEmpty || !trace.dueTimerFirings.isEmpty { clockSteps = Self.naturalClockSteps(trace, firesTimer: firesTimer) }
    movesClock.removeAll(keepingCapacity: true)
    movesClock.append(contentsOf: repeatElement(false, count: steps + 1))
    for step in clockSteps { movesClock[step] = true }
    guard followJobs(ready: ready, chosen: chosen, resumingFrom: previous, sharing: shared) else { return false }
    movableClockSteps.removeAll(keepingCapacity: true)
    if !clockSteps.isEmpty {
      movableClockSteps = Self.movableClockSteps(
        clockSteps, firesTimer: firesTimer, allowed: trace.earlyFiringsAllowed, sameInstant: sameInstantClockSteps)
    }
    noteExecutedEvents(trace, steps: steps)
    threads.removeAll(keepingCapacity: true)
    touchesEverything.removeAll(keepingCapacity: true)
    outsideActors.removeAll(keepingCapacity: true)
    for step in 0..<steps {
      let job = jobRun[step]
      let thread: Thread =
        if job.firesTimer { .clock } else if let task = job.task { .task(task) } else if let actor = executed[step]?.actor { .actor(actor) } else {
          .unplaced(step: step)
        }
      threads.append(thread)
      // A job from outside may have touched anything.
      touchesEverything.append(job.arrivedFromOutside)
      outsideActors.append(job.task != nil && !job.firesTimer && !job.isOnMainActor)
    }
    // Emptied in place: removing the sets and adding new ones costs a release and a retain each.
    objects.withUnsafeMutableBufferPointer { objects in
      for index in objects.indices.prefix(steps) { objects[index].removeAll() }
    }
    if objects.count > steps { objects.removeLast(objects.count - steps) }
    objects.append(contentsOf: repeatElement(ObjectSet(), count: steps - objects.count))
    recordOwnWork(trace: trace)
    recordTimerEffects(trace)
    // Before wake-ups are added, a step that touches a task is one that ran its work.
    recordCancellations(trace)
    recordWakeUps(keepingWhatHopsSaw: !assumesNoUnseenSharing)
    recordWorkBeyondActors(trace)
    recordChildren(trace)
    recordSharingOutsideActors(trace: trace, leftWaiting: leftWaiting)
    for note in trace.notes where note.step < steps { objects[note.step].insert(.notes) }
    for touch in trace.locks where touch.step < steps { objects[touch.step].insert(.lock(touch.lock)) }
    // A read of another task's cancelled flag, noted last: it ran none of that task's work.
    for read in trace.taskReads where read.step < steps { objects[read.step].insert(.task(read.task)) }
    recordTimersDueTogether(trace)
    recordDueFirings()
    numberActorsByFirstTouch()
    return true
  }

  /// The trace numbers actors in the order their first job ran, which two runs that share their
  /// first steps may not agree on: a step that hops onto an actor touches it before its first job
  /// runs, and which actor's job runs first may be decided later. So the steps number them
  /// afresh, in the order they touch them first: the same in two runs whose first steps touch
  /// the same actors in the same order, as the choice points that both pass through compare
  /// what their options touched.
  private func numberActorsByFirstTouch() {
    // Most often the actors are touched first in the order their first jobs ran: then the new
    // numbers are the old ones, found by reading the steps, without writing each step's objects.
    scratch.actorNumbering.removeAll()
    var renumbers = false
    for step in threads.indices where !renumbers {
      if case .actor(let actor) = threads[step], scratch.actorNumbering.number(of: actor) != actor { renumbers = true }
      for object in objects[step] {
        if let actor = object.defaultActor, scratch.actorNumbering.number(of: actor) != actor { renumbers = true }
      }
    }
    guard renumbers else { return }
    scratch.actorNumbering.removeAll()
    for step in threads.indices {
      if case .actor(let actor) = threads[step] { threads[step] = .actor(scratch.actorNumbering.number(of: actor)) }
      objects[step].renumberActors(&scratch.actorNumbering)
    }
  }

  /// A timer fired when due changes no time: it only wakes its task, and takes its turn among the
  /// timers due at its instant. So its step touches that task and those timers, and depends on no
  /// other step that affects a timer (``affectsTimer``), as one fired early does.
  private func recordDueFirings() {
    for (step, timer) in dueTimers.firstOffered where firesTimer[step] {
      if let owner = timer.owner { objects[step].insert(.task(owner)) }
      objects[step].insert(.timersDue(at: timer.deadline))
    }
  }

  /// Timers due at the same instant fire in the order they were set, so a step that sets one
  /// touches the timers due then: in another run, another step may set one due then too.
  private func recordTimersDueTogether(_ trace: Trace) {
    for setting in trace.timersSet where setting.step < threads.count { objects[setting.step].insert(.timersDue(at: setting.deadline)) }
  }

  /// Follows each ready job from choice to choice, into ``jobs``, ``enabledBy`` and
  /// ``enabledByClock``; false when a ready list is not the one before it less the job picked,
  /// plus jobs added at the end. The choice to fire a timer, last when offered, is no job.
  ///
  /// The first `shared` steps made the same choices from the same ready jobs as those of
  /// `previous`: where the clock moved on before the same ones of them, what following them
  /// found then is copied, and the jobs are followed from the first step after those.
  private func followJobs(ready: ReadyLists, chosen: [Int], resumingFrom previous: StepAccesses?, sharing shared: Int) -> Bool {
    let steps = chosen.count
    jobs.removeAll()
    enabledBy.removeAll(keepingCapacity: true)
    enabledByClock.removeAll(keepingCapacity: true)
    // Job numbers by ready position, and for each job number where it came from.
    var current = Array.takingStorage(of: &scratch.current)
    var madeReadyBy = Array.takingStorage(of: &scratch.madeReadyBy)
    var madeReadyByClock = Array.takingStorage(of: &scratch.madeReadyByClock)
    defer {
      scratch.current = current
      scratch.madeReadyBy = madeReadyBy
      scratch.madeReadyByClock = madeReadyByClock
    }
    var from = 0
    if let previous, previous !== self {
      let limit = min(shared, steps, previous.jobs.numberRunAt.count)
      while from < limit, movesClock[from] == previous.movesClock[from] { from += 1 }
    }
    var firedTimer = false
    if let previous, from > 0 {
      let before = previous.jobs
      jobs.numbers.append(contentsOf: before.numbers[..<before.firstNumberOf[from]])
      jobs.firstNumberOf.append(contentsOf: before.firstNumberOf[..<from])
      jobs.numberRunAt.append(contentsOf: before.numberRunAt[..<from])
      jobs.knownAfter.append(contentsOf: before.knownAfter[..<from])
      // A step's new jobs are noted as it is followed, with the step before it.
      jobs.madeReady.append(contentsOf: before.madeReady.prefix { $0.step < from - 1 })
      enabledBy.append(contentsOf: previous.enabledBy[..<from])
      enabledByClock.append(contentsOf: previous.enabledByClock[..<from])
      // The jobs ready at the last step copied, less the one it ran, as following it left them.
      current.append(contentsOf: before.numbers[before.firstNumberOf[from - 1]..<before.firstNumberOf[from]])
      firedTimer = chosen[from - 1] == current.count
      if !firedTimer { current.remove(at: chosen[from - 1]) }
      let known = before.knownAfter[from - 1]
      madeReadyBy.append(contentsOf: previous.scratch.madeReadyBy[..<known])
      madeReadyByClock.append(contentsOf: previous.scratch.madeReadyByClock[..<known])
    }
    enabledBy.append(contentsOf: repeatElement(nil, count: steps - from))
    enabledByClock.append(contentsOf: repeatElement(nil, count: steps - from))
    return ready.withBuffers { lists, starts in
      for step in from..<steps {
        let list = starts[step]..<starts[step + 1]
        let count = list.count - (!list.isEmpty && lists[list.upperBound - 1].firesTimer ? 1 : 0)
        if step == 0 {
          current.append(contentsOf: 0..<count)
          madeReadyBy.append(contentsOf: repeatElement(-1, count: count))
          madeReadyByClock.append(contentsOf: repeatElement(-1, count: count))
        } else {
          // The jobs ready before, less the one that ran, then those the step before made ready.
          let before = starts[step - 1]..<list.lowerBound
          guard count >= current.count, Self.jobsLeft(lists, before, chosen: chosen[step - 1], firesTimer: firedTimer, are: list) else { return false }
          let byClock = movesClock[step]
          for position in (list.lowerBound + current.count)..<(list.lowerBound + count) {
            current.append(madeReadyBy.count)
            madeReadyBy.append(byClock ? -1 : step - 1)
            madeReadyByClock.append(byClock ? step : -1)
            if !byClock { jobs.madeReady.append((step - 1, lists[position])) }
          }
        }
        // Each position is inside its step's list: `fill` checked it when it looked the jobs up.
        guard count == current.count else { return false }
        jobs.knownAfter.append(madeReadyBy.count)
        jobs.firstNumberOf.append(jobs.numbers.count)
        jobs.numbers.append(contentsOf: current)
        firedTimer = chosen[step] == current.count
        jobs.numberRunAt.append(-1)
        if !firedTimer {
          let job = current.remove(at: chosen[step])
          jobs.numberRunAt[step] = job
          if madeReadyBy[job] >= 0 { enabledBy[step] = madeReadyBy[job] }
          if madeReadyByClock[job] >= 0 { enabledByClock[step] = madeReadyByClock[job] }
        }
      }
      jobs.firstNumberOf.append(jobs.numbers.count)
      return true
    }
  }

  /// Whether the jobs of `lists` at `next` begin with those at `jobs` less the one at `chosen`,
  /// unless it fired a timer.
  private static func jobsLeft(
    _ lists: UnsafeBufferPointer<ReadyJob>, _ jobs: Range<Int>, chosen: Int, firesTimer: Bool, are next: Range<Int>
  ) -> Bool {
    let count = jobs.count - (!jobs.isEmpty && lists[jobs.upperBound - 1].firesTimer ? 1 : 0)
    var position = next.lowerBound
    for index in 0..<count where firesTimer || index != chosen {
      guard position < next.upperBound, lists[position] == lists[jobs.lowerBound + index] else { return false }
      position += 1
    }
    return true
  }

  /// What ``followJobs(ready:chosen:)`` finds, besides what made each step's job ready.
  private struct FollowedJobs {
    /// The number of each job ready at each step, by ready position, one step's list after
    /// another, and where each step's list begins (with the end of the last at the end).
    var numbers: [Int] = []
    var firstNumberOf: [Int] = []
    /// By step, the number of the job it ran, or -1 for a timer.
    var numberRunAt: [Int] = []
    /// Each job a step made ready, with that step.
    var madeReady: [(step: Int, job: ReadyJob)] = []
    /// By step, how many jobs had a number once its ready jobs were followed.
    var knownAfter: [Int] = []

    /// Empties every list, keeping its storage.
    mutating func removeAll() {
      knownAfter.removeAll(keepingCapacity: true)
      numbers.removeAll(keepingCapacity: true)
      firstNumberOf.removeAll(keepingCapacity: true)
      numberRunAt.removeAll(keepingCapacity: true)
      madeReady.removeAll(keepingCapacity: true)
    }
  }

  /// The arrays the passes work in, kept with the facts so that filling them again reuses them.
  private struct Scratch {
    var current: [Int] = []
    var madeReadyBy: [Int] = []
    var madeReadyByClock: [Int] = []
    /// By task number: its last step so far, or -1 (``recordOwnWork(trace:)``); how many tasks
    /// it made that completed without waking it (``recordChildren(_:)``); the step at which it
    /// completed, or -1 (``recordSharingOutsideActors(trace:leftWaiting:)``).
    var byTask: [Int] = []
    /// The actors' new numbers (``numberActorsByFirstTouch()``).
    var actorNumbering = ActorNumbering()
    /// The tasks made with `Task {}` whose completions are touched one by one, and those set
    /// apart (``recordChildren(_:)``).
    var made: [(maker: TaskID, task: TaskID, step: Int)] = []
    var separate: [(maker: TaskID, task: TaskID, step: Int)] = []
    /// By task number, the task it was joined with (``recordSharingOutsideActors(trace:leftWaiting:)``).
    var joinedWith: [Int] = []
  }

  /// The first step before `limit` whose facts differ from those of the same step of `other`, a
  /// run that made the same choices from the same ready jobs up to `limit`, or `limit`: what it
  /// touched, its thread, what made its job ready, its timers, and whether the clock moved on
  /// before it, and how (a barrier, movable, or the firing of a timer due at the instant it was at
  /// already). A step's facts may depend on later steps (a task's step before its work runs on
  /// an actor touches the actor, a waker touches the task it woke), so two such runs may differ
  /// before they part.
  func firstDifference(from other: StepAccesses, upTo limit: Int) -> Int {
    var moves = 0
    for step in 0..<limit {
      while moves < clockSteps.count, clockSteps[moves] < step { moves += 1 }
      let moved = moves < clockSteps.count && clockSteps[moves] == step
      let movedThen = other.clockSteps.contains(step)
      guard threads[step] == other.threads[step], objects[step] == other.objects[step],
        touchesEverything[step] == other.touchesEverything[step], outsideActors[step] == other.outsideActors[step],
        firesTimer[step] == other.firesTimer[step], firesEarlyTimer[step] == other.firesEarlyTimer[step],
        affectsTimer[step] == other.affectsTimer[step], enabledBy[step] == other.enabledBy[step],
        enabledByClock[step] == other.enabledByClock[step], timerPositions[step] == other.timerPositions[step],
        moved == movedThen, !moved || movableClockSteps.contains(step) == other.movableClockSteps.contains(step),
        !moved || sameInstantClockSteps.contains(step) == other.sameInstantClockSteps.contains(step)
      else { return step }
    }
    return limit
  }

  /// Whether `other` holds the same facts as these, step by step, and followed the ready jobs to
  /// the same numbers: the check for tests of facts filled from where a run parted from the one
  /// before.
  func hasSameFacts(as other: StepAccesses) -> Bool {
    threads.count == other.threads.count && firstDifference(from: other, upTo: threads.count) == threads.count
      && clockSteps == other.clockSteps && movableClockSteps == other.movableClockSteps && jobs.numbers == other.jobs.numbers
      && jobs.firstNumberOf == other.jobs.firstNumberOf && jobs.numberRunAt == other.jobs.numberRunAt && jobs.knownAfter == other.jobs.knownAfter
      && jobs.madeReady.map(\.step) == other.jobs.madeReady.map(\.step) && jobs.madeReady.map(\.job) == other.jobs.madeReady.map(\.job)
  }

  /// The position among the jobs ready at step `i` of the job that ran at step `step`, if it was
  /// ready there.
  func position(atStep i: Int, ofJobRunAt step: Int) -> Int? {
    let number = jobs.numberRunAt[step]
    guard number >= 0 else { return nil }
    let list = jobs.firstNumberOf[i]..<jobs.firstNumberOf[i + 1]
    return list.firstIndex { jobs.numbers[$0] == number }.map { $0 - list.lowerBound }
  }

  /// How many jobs were ready at `step`, the choice to fire a timer not counted.
  func jobCount(atStep step: Int) -> Int { jobs.firstNumberOf[step + 1] - jobs.firstNumberOf[step] }

  /// The steps before which the clock moved on, or fired a timer due at the instant it was at,
  /// because no job was ready: every move and firing, less those of timers fired at the
  /// strategy's pick, each recorded at the step that fired it.
  private static func naturalClockSteps(_ trace: Trace, firesTimer: [Bool]) -> [Int] {
    var picked = Set(firesTimer.indices.filter { firesTimer[$0] })
    var natural: [Int] = []
    let firings = (trace.clockAdvances.map(\.step) + trace.dueTimerFirings).sorted()
    for step in firings.reversed() {
      if picked.remove(step) != nil { continue }
      if step > 0 && step < firesTimer.count && natural.last != step { natural.append(step) }
    }
    return natural.reversed()
  }

  /// The clock's moves before which a timer could have fired earlier, in some order of the steps
  /// before: those before which the run had fired fewer timers early than `allowed`, and those
  /// that fired a timer due at the instant the clock was at already (`sameInstant`), which could
  /// have fired as soon as the clock got there.
  private static func movableClockSteps(_ clockSteps: [Int], firesTimer: [Bool], allowed: Int, sameInstant: Set<Int>) -> Set<Int> {
    var movable: Set<Int> = []
    var fired = 0
    var moves = clockSteps[...]
    for step in firesTimer.indices {
      while moves.first == step {
        moves.removeFirst()
        if fired < allowed || sameInstant.contains(step) { movable.insert(step) }
      }
      // A timer that fired when due is no early firing.
      if firesTimer[step], !sameInstant.contains(step) { fired += 1 }
    }
    return movable
  }


  /// Notes in ``executed`` the event that began each step's job: a task's start or resumption,
  /// or an actor's job.
  private func noteExecutedEvents(_ trace: Trace, steps: Int) {
    executed.removeAll(keepingCapacity: true)
    executed.append(contentsOf: repeatElement(nil, count: steps))
    for event in trace.events where event.step < steps && executed[event.step] == nil {
      switch event.kind {
      case .started, .resumed, .actorJob: executed[event.step] = event
      default: continue
      }
    }
  }

  /// Each step touches its own task, or its actor and the tasks whose work it ran; and the step
  /// of a task before its work runs on an actor touches that actor, since that is where it queued
  /// itself there.
  /// Notes in ``ownTasks`` the tasks whose work each step ran.
  private func recordOwnWork(trace: Trace) {
    // By task number: its last step so far, or -1.
    var lastStepOf = Array.takingStorage(of: &scratch.byTask)
    defer { scratch.byTask = lastStepOf }
    ownTasks.removeAll()
    for step in threads.indices {
      guard threads[step] != .clock else {
        ownTasks.append(EmptyCollection())
        continue
      }
      let job = jobRun[step]
      var actor: Int??
      func ran(_ task: TaskID) {
        objects[step].insert(.task(task))
        if task.rawValue >= lastStepOf.count { lastStepOf.append(contentsOf: repeatElement(-1, count: task.rawValue + 1 - lastStepOf.count)) }
        if let actor, lastStepOf[task.rawValue] >= 0 { objects[lastStepOf[task.rawValue]].insert(.actor(actor)) }
        lastStepOf[task.rawValue] = step
      }
      if let task = job.task {
        if job.isOnMainActor { actor = .some(nil) }
        ran(task)
        ownTasks.append(CollectionOfOne(task))
      } else {
        if case .actor(let index) = threads[step] { actor = .some(index) } else { touchesEverything[step] = true }
        if let tasks = trace.actorJobTasks[step] {
          for task in tasks { ran(task) }
          ownTasks.append(tasks)
        } else if let task = job.scheduledBy {
          ran(task)
          ownTasks.append(CollectionOfOne(task))
        } else {
          ownTasks.append(EmptyCollection())
        }
      }
      if let actor { objects[step].insert(.actor(actor)) }
    }
  }

  /// Marks the steps that affect a timer fired early (see ``affectsTimer``): a step that read the
  /// clock or began a sleep, every later step of a task that did (no timer fires early while such
  /// a task is ready), every step of a task cancelled in the run, and a step that made a job of
  /// another task ready. And a timer fired early is no job: it touches only the tasks it wakes.
  private func recordTimerEffects(_ trace: Trace) {
    affectsTimer.removeAll(keepingCapacity: true)
    affectsTimer.append(contentsOf: repeatElement(false, count: threads.count))
    var timed = trace.timedSteps[...]
    var keepsTime = TaskFlags()
    // A task delayed by a timer fired early and cancelled by its next job is cut there: which of
    // its jobs is the first since the delay depends on where the timer fires among its steps.
    var cancelled = TaskFlags()
    var anyCancelled = false
    for event in trace.events where event.kind == .cancelled {
      if let task = event.task {
        cancelled[task] = true
        anyCancelled = true
      }
    }
    // Without a step that read the clock or slept, or a task cancelled, no step is marked here.
    let marksSteps = !timed.isEmpty || anyCancelled
    for step in threads.indices where marksSteps {
      while let first = timed.first, first < step { timed.removeFirst() }
      if timed.first == step {
        affectsTimer[step] = true
        for task in ownTasks[step] { keepsTime[task] = true }
      } else if ownTasks[step].contains(where: { keepsTime[$0] || cancelled[$0] }) {
        affectsTimer[step] = true
      }
    }
    for (step, job) in jobs.madeReady where !(job.owner.map(ownTasks[step].contains) ?? false) { affectsTimer[step] = true }
  }

  /// A step that makes another task's job ready (resuming its continuation, completing a task it
  /// waits for, cancelling its sleep) touches that task.
  ///
  /// A step that schedules an actor's job touches the actor. One that steps onto an actor already
  /// scheduled only joins its queue: the actor's job lists it where the runtime's records can be
  /// read (see ``StrategyReference/canListQueuedActorWork``), and ``recordOwnWork`` makes it touch
  /// the actor; elsewhere every step from the job's scheduling to its run touches the actor.
  ///
  /// And what a task saw outside actors in the step that took it onto an actor, the actor's job
  /// may rely on: other tasks' steps outside actors until the job runs touch it
  /// (``Object/seenBeforeHop(step:)``), the check-then-hop of state behind a lock, unless
  /// `keepingWhatHopsSaw` is false.
  private func recordWakeUps(keepingWhatHopsSaw: Bool) {
    for step in threads.indices {
      let waker = enabledBy[step]
      switch threads[step] {
      case .task(let task):
        guard let waker, threads[waker] != .task(task) else { continue }
        objects[waker].insert(.task(task))
        if jobRun[step].isOnMainActor { objects[waker].insert(.actor(nil)) }
      case .actor(let actor):
        guard StrategyReference.canListQueuedActorWork else {
          for queuing in (waker ?? 0)..<step { objects[queuing].insert(.actor(actor)) }
          continue
        }
        guard let waker else { continue }
        objects[waker].insert(.actor(actor))
        guard keepingWhatHopsSaw, outsideActors[waker] else { continue }
        for other in waker + 1..<step where outsideActors[other] && threads[other] != threads[waker] {
          objects[other].insert(.seenBeforeHop(step: waker))
          objects[waker].insert(.seenBeforeHop(step: waker))
        }
      case .unplaced:
        if let waker { touchesEverything[waker] = true }
      case .clock:
        continue
      }
    }
  }

  /// A cancellation writes the cancelled task's flag, which every step of that task reads (each may
  /// check `Task.isCancelled`, and a sleep, a stream or a handler does): the step that cancelled
  /// it touches the task. Where the scheduler watched for cancellations after every step, the
  /// event is at that step; elsewhere it is seen only when the cancelled task's next job begins,
  /// and every step since the task's job before touches the task.
  private func recordCancellations(_ trace: Trace) {
    for event in trace.events where event.kind == .cancelled {
      guard let task = event.task, event.step < threads.count else { continue }
      if trace.cancellationsAtTheirStep {
        objects[event.step].insert(.task(task))
        continue
      }
      var step = event.step - 1
      while step >= 0, !objects[step].contains(.task(task)) {
        objects[step].insert(.task(task))
        step -= 1
      }
    }
  }

  /// An actor's job that ran a task without an executor preference may have run it on other
  /// actors, unseen: it touches every actor, and may have completed any structured child it ran.
  private func recordWorkBeyondActors(_ trace: Trace) {
    for step in trace.stepsBeyondTheirActor where step < threads.count {
      objects[step].formUnion(trace.actors.indices.map { .actor($0) })
      for task in objects[step].compactMap(\.task) {
        guard let info = trace[task: task], info.kind == .groupChild || info.kind == .asyncLet, let parent = info.parent else { continue }
        objects[step].insert(.children(parent))
      }
    }
  }

  /// The order in which structured children complete is what a task group's `next()` returns, so
  /// a child's last step and every step of its parent touch the parent's children. A task made
  /// with `Task {}` is most often awaited by the task that made it, which finds it completed
  /// without waiting, unseen, when it completed first: its last step and every later step of its
  /// maker touch its completion (a maker's step before it that waited on it was woken by it; one
  /// that did not, did not read it), unless that step woke the maker, which orders them already.
  /// A maker of more than ``separateCompletions`` such tasks has them all touch its children
  /// instead, which keeps a step's objects few.
  private func recordChildren(_ trace: Trace) {
    var parents = TaskFlags()
    var anyParent = false
    // The tasks made with `Task {}` that completed without waking their maker, and how many each
    // task made so.
    var made = Array.takingStorage(of: &scratch.made)
    var madeBy = Array.takingStorage(of: &scratch.byTask)
    var separate = Array.takingStorage(of: &scratch.separate)
    defer {
      scratch.made = made
      scratch.byTask = madeBy
      scratch.separate = separate
    }
    for event in trace.events where event.kind == .completed && event.step < threads.count {
      guard let task = event.task, trace.tasks.indices.contains(task.rawValue), let parent = trace.tasks[task.rawValue].parent, parent != task
      else { continue }
      let kind = trace.tasks[task.rawValue].kind
      guard kind == .groupChild || kind == .asyncLet else {
        let step = event.step
        if threads.indices[(step + 1)...].contains(where: { threads[$0] == .task(parent) && enabledBy[$0] == step }) { continue }
        made.append((parent, task, step))
        if parent.rawValue >= madeBy.count { madeBy.append(contentsOf: repeatElement(0, count: parent.rawValue + 1 - madeBy.count)) }
        madeBy[parent.rawValue] += 1
        continue
      }
      objects[event.step].insert(.children(parent))
      parents[parent] = true
      anyParent = true
    }
    for entry in made {
      if madeBy[entry.maker.rawValue] > Self.separateCompletions {
        objects[entry.step].insert(.children(entry.maker))
        parents[entry.maker] = true
        anyParent = true
      } else {
        objects[entry.step].insert(.completion(entry.task))
        separate.append(entry)
      }
    }
    swap(&made, &separate)
    guard anyParent || !made.isEmpty else { return }
    for step in threads.indices {
      for object in objects[step] {
        guard let task = object.task else { continue }
        if parents[task] { objects[step].insert(.children(task)) }
        for entry in made where entry.maker == task && entry.step < step { objects[step].insert(.completion(entry.task)) }
      }
    }
  }

  /// How many tasks made with `Task {}` by one task have their completions touched one by one.
  static let separateCompletions = 8

  /// Tasks that wake each other from outside any actor (resuming a continuation kept in a
  /// lock-protected box, yielding to a stream another task reads) share something the scheduler
  /// cannot see, so their steps outside actors all touch it. Starting a task and completing one
  /// that another awaits do not count: they share nothing unseen. And when the run ends stuck,
  /// whatever would have woken the waiting tasks went unseen: every task's steps outside actors
  /// then touch one thing in common.
  private func recordSharingOutsideActors(trace: Trace, leftWaiting: Bool) {
    // By task number: the step at which it completed, or -1.
    var completedAt = Array.takingStorage(of: &scratch.byTask)
    defer { scratch.byTask = completedAt }
    for event in trace.events where event.kind == .completed {
      guard let task = event.task else { continue }
      if task.rawValue >= completedAt.count { completedAt.append(contentsOf: repeatElement(-1, count: task.rawValue + 1 - completedAt.count)) }
      completedAt[task.rawValue] = event.step
    }
    func completed(_ task: TaskID, at step: Int) -> Bool { task.rawValue < completedAt.count && completedAt[task.rawValue] == step }
    // By task number: the task it was joined with, itself for a root, or -1 for a task never
    // joined; an array kept from run to run rather than a dictionary made for each.
    var parent = Array.takingStorage(of: &scratch.joinedWith)
    defer { scratch.joinedWith = parent }
    func root(_ task: TaskID) -> Int {
      var task = task.rawValue
      while task < parent.count, parent[task] >= 0, parent[task] != task { task = parent[task] }
      return task
    }
    func join(_ task: Int) {
      if task >= parent.count { parent.append(contentsOf: repeatElement(-1, count: task + 1 - parent.count)) }
      if parent[task] < 0 { parent[task] = task }
    }
    var joined = false
    // By task number: whether a step of it ran already.
    var started = TaskFlags()
    for step in threads.indices {
      guard case .task(let woken) = threads[step] else { continue }
      defer { started[woken] = true }
      guard started[woken], let waker = enabledBy[step], case .task(let wakerTask) = threads[waker], woken != wakerTask,
        outsideActors[waker], !completed(wakerTask, at: waker)
      else { continue }
      let (first, second) = (root(woken), root(wakerTask))
      join(first)
      join(second)
      joined = true
      if first != second { parent[max(first, second)] = min(first, second) }
    }
    guard leftWaiting || joined else { return }
    for step in threads.indices where outsideActors[step] {
      guard case .task(let task) = threads[step] else { continue }
      if leftWaiting {
        objects[step].insert(.outsideActors(nil))
      } else if task.rawValue < parent.count, parent[task.rawValue] >= 0 {
        objects[step].insert(.outsideActors(TaskID(root(task))))
      }
    }
  }
}
