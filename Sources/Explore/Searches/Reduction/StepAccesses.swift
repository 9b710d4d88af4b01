import EffectScheduler

/// What each step of one run touched, as far as the scheduler can tell, and which step made each
/// step's job ready: the raw material of partial-order reduction (see ``ReducedDepthFirstSearch``).
///
/// The independence relation, in one place: two steps of different threads are dependent exactly
/// when they touch a common ``Object``, one of them touches everything, or one fires a timer early
/// and the other affects a timer (``StepFootprint/conflicts(with:step:memory:)`` says it for two steps, and
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
/// | `Mutex`, atomics, unchecked `Sendable` state | in instrumented code, each word read or written (``memory``): a write and another touch of the word; elsewhere unseen: guessed at by ``Object/outsideActors(_:)`` and, unless the exploration assumes no unseen sharing, ``Object/seenBeforeHop(step:)`` |
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
  @exclusivity(unchecked) var threads: [Thread] = []
  /// What each step touched.
  @exclusivity(unchecked) var objects: [ObjectSet] = []
  /// Steps that may have touched anything: jobs from outside the scheduler's control.
  @exclusivity(unchecked) var touchesEverything: [Bool] = []
  /// Steps that ran a task's code outside any actor, where it may touch state the scheduler
  /// cannot see.
  @exclusivity(unchecked) var outsideActors: [Bool] = []
  /// The step during which each step's job became ready, or `nil` when it was ready before the
  /// first step or arrived from outside.
  @exclusivity(unchecked) var enabledBy: [Int?] = []
  /// Each ready job of each step, followed from choice to choice: where it ran (see
  /// ``position(atStep:ofJobRunAt:)``).
  @exclusivity(unchecked) var jobs = FollowedJobs()
  /// The steps before which the virtual clock moved on, in order. The clock moves only when no
  /// job is ready, so every step before such a step comes before every step from it on, in any
  /// schedule: the jobs made ready then are the wake-ups of sleeps, which no step made ready.
  @exclusivity(unchecked) var clockSteps: [Int] = []
  /// The steps before which the clock moved on while the run could still fire a timer early: such
  /// a move is no barrier, since in another order of the steps before, the timer could have fired
  /// before any of them that does not affect it.
  @exclusivity(unchecked) var movableClockSteps: Set<Int> = []
  /// For each step, the position of the choice to fire a timer early among its ready jobs, if
  /// offered.
  @exclusivity(unchecked) var timerPositions: [Int?] = []
  /// The steps that fired a timer, early or due (``ReadyJob/timer``).
  @exclusivity(unchecked) var firesTimer: [Bool] = []
  /// The steps that fired a timer early: those that moved the clock.
  @exclusivity(unchecked) var firesEarlyTimer: [Bool] = []
  /// The steps at which the timer offered was due already, with the timers due then.
  @exclusivity(unchecked) var dueTimers = DueTimers()
  /// The steps before which a timer due at the instant the clock was at already fired, when no
  /// job was ready or at the strategy's pick: no move of the clock.
  @exclusivity(unchecked) var sameInstantClockSteps: Set<Int> = []
  /// The steps that affect a timer fired early: read the clock or began a sleep, ran a task that
  /// had or a task cancelled in the run, or made another task's job ready (a timer fired before
  /// the step would have delayed it).
  @exclusivity(unchecked) var affectsTimer: [Bool] = []
  /// For each step whose job the clock's move made ready, the step before which it moved.
  @exclusivity(unchecked) var enabledByClock: [Int?] = []
  /// What each step read and wrote, where the run's code was instrumented: then no state is
  /// unseen but that of code built without the instrumentation.
  @exclusivity(unchecked) var memory = StepMemory()

  // What the passes work out on the way, kept so that filling the facts again reuses the arrays.
  /// The job each step ran.
  @exclusivity(unchecked) var jobRun: [ReadyJob] = []
  /// By step, whether the clock moved on before it; one more entry than steps.
  @exclusivity(unchecked) var movesClock: [Bool] = []
  /// The event that began each step's job (``noteExecutedEvents(_:steps:)``).
  @exclusivity(unchecked) var executed: [TraceEvent?] = []
  /// The tasks whose work each step ran (``recordOwnWork(trace:)``).
  @exclusivity(unchecked) var ownTasks = StepLists()
  @exclusivity(unchecked) var scratch = Scratch()

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
    // A run that stopped watching cancellations cannot say which step cancelled a task.
    guard ready.count == steps, trace.steps >= steps, trace.cancellationsUnwatchedFrom == nil else { return false }
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
    memory.fill(trace, steps: steps)
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
      touchesEverything.append(job.arrivedFromOutside || memory.touchesEveryWord(step))
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
    // Where memory is followed, what tasks share outside actors is seen, not guessed at.
    recordWakeUps(keepingWhatHopsSaw: !assumesNoUnseenSharing && !memory.followed)
    recordWorkBeyondActors(trace)
    recordChildren(trace)
    if !memory.followed { recordSharingOutsideActors(trace: trace, leftWaiting: leftWaiting) }
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

  /// How many jobs were ready at `step`, the choice to fire a timer not counted.
  func jobCount(atStep step: Int) -> Int { jobs.firstNumberOf[step + 1] - jobs.firstNumberOf[step] }

  /// How many tasks made with `Task {}` by one task have their completions touched one by one.
  static let separateCompletions = 8
}
