/// What the run records for its trace, step by step: the events and choices, the notes the
/// program added, and what came from outside.
package struct RunTrail {
  var events: [RecordedEvent] = []
  var choices: [ScheduleChoice] = []
  var fingerprint = DeterministicScheduler.fingerprintSeed
  /// The tasks the running step made ready, not cancelled then; see CancelledWhereMadeReady.swift.
  var madeReadyInStep: [(job: UnownedJob, task: TaskID)] = []
  /// The first thing the run met that no schedule can show, in words; see
  /// CancelledWhereMadeReady.swift.
  package internal(set) var unexplored: String?
  /// The first issue the test framework recorded in one of the run's steps, in words; see
  /// ``noteIssueRecordedByCallingCode(_:)``.
  package internal(set) var issueRecorded: String?
  /// The steps whose job was handed back from outside the scheduler's control.
  package internal(set) var outsideSteps: [Int] = []
  /// The reads of other tasks' cancelled flags steps made through their handles, by step (see
  /// CancellationReads.swift).
  var taskReads: [TaskRead] = []
  /// The work the run's code handed to Dispatch; see DispatchHandOffs.swift.
  package internal(set) var handOffs: [HandOff] = []
  /// What the program's tasks added to the trace; kept apart from `events`, whose plain values
  /// cost nothing to copy or clear on the hot path.
  var notes: [TraceNote] = []
  /// Whether the run listens to instrumented code (Instrumentation.swift).
  var listened = false
  /// Whether instrumented code of the run's steps told it of an operation: from then on, the
  /// run follows the runtime's happens-before marks too. Those before it order no access.
  package internal(set) var instrumented = false

  /// Forgets the run recorded, keeping the storage, for another run.
  mutating func clear() {
    events.removeAll(keepingCapacity: true)
    choices.removeAll(keepingCapacity: true)
    fingerprint = DeterministicScheduler.fingerprintSeed
    if !madeReadyInStep.isEmpty { madeReadyInStep.removeAll(keepingCapacity: true) }
    unexplored = nil
    issueRecorded = nil
    if !outsideSteps.isEmpty { outsideSteps.removeAll(keepingCapacity: true) }
    if !handOffs.isEmpty { handOffs.removeAll() }
    if !notes.isEmpty { notes.removeAll(keepingCapacity: true) }
    if !taskReads.isEmpty { taskReads.removeAll(keepingCapacity: true) }
    listened = false
    instrumented = false
  }

  /// Lets go of the storage a cut run's records filled, which may be large.
  mutating func releaseStorage() {
    events = []
    choices = []
    notes = []
    taskReads = []
    madeReadyInStep = []
    outsideSteps = []
  }
}
