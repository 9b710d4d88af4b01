/// A ``TraceEvent`` as the scheduler records it during a run: the same fields, stored narrowly.
///
/// Every step writes two or three events and a search runs thousands of runs, almost none of which
/// ever becomes a ``Trace``, so the events are kept in 24 bytes rather than the public value's 56
/// (`MemoryLayout.stride`), and turned into ``TraceEvent``s only when a trace is built. A run's
/// task ids and actor indices count what it registered, so they fit in 32 bits; the step is kept
/// whole.
struct RecordedEvent {
  let step: Int
  /// The raw values of the optional ids, `-1` for `nil`.
  private let task: Int32
  private let scheduledBy: Int32
  private let actor: Int32
  var kind: TraceEvent.Kind
  private let flags: UInt8

  private static let fromOutside: UInt8 = 1
  private static let onMainActor: UInt8 = 2

  init(
    step: Int, task: TaskID?, kind: TraceEvent.Kind, fromOutside: Bool = false, scheduledBy: TaskID? = nil,
    onMainActor: Bool = false, actor: Int? = nil
  ) {
    self.step = step
    self.task = Int32(task?.rawValue ?? -1)
    self.scheduledBy = Int32(scheduledBy?.rawValue ?? -1)
    self.actor = Int32(actor ?? -1)
    self.kind = kind
    flags = (fromOutside ? Self.fromOutside : 0) | (onMainActor ? Self.onMainActor : 0)
  }

  /// The event, as a trace shows it.
  var event: TraceEvent {
    TraceEvent(
      step: step, task: task < 0 ? nil : TaskID(Int(task)), kind: kind, fromOutside: flags & Self.fromOutside != 0,
      scheduledBy: scheduledBy < 0 ? nil : TaskID(Int(scheduledBy)), onMainActor: flags & Self.onMainActor != 0,
      actor: actor < 0 ? nil : Int(actor))
  }

  /// The event folded into a trace's fingerprint: step, task, the task an actor's job was
  /// scheduled for, kind and flags, each in bits of its own as far as a run's numbers go.
  var packed: UInt64 {
    var packed = UInt64(truncatingIfNeeded: step) << 24
    packed |= UInt64(truncatingIfNeeded: Int(task < 0 ? 0xFFF : task) & 0xFFF) << 12
    packed |= UInt64(truncatingIfNeeded: Int(scheduledBy < 0 ? 0xFF : scheduledBy) & 0xFF) << 4
    packed |= UInt64(kind.code) << 1 | UInt64(flags & Self.fromOutside) | (flags & Self.onMainActor != 0 ? 1 << 60 : 0)
    return packed
  }
}
