import EffectScheduler

extension StepAccesses {
  /// Something steps can touch. Two steps of different threads that touch the same thing are
  /// dependent: running them in the other order can change what happens.
  ///
  /// Packed in one word, its kind in the top byte and its index below, so that the handful a step
  /// touches are compared and numbered as integers (the analysis looks at each of them for every
  /// run): see ``ObjectSet``.
  struct Object: Hashable {
    /// The kinds of things steps touch, each numbered from 1, so that no object is all zeros.
    enum Kind: UInt8 {
      case task = 1, actor, children, notes, outsideActors, seenBeforeHop, lock, timersDue, completion, wordWritten, wordTouched
    }

    let bits: UInt64

    init(bits: UInt64) { self.bits = bits }

    private init(_ kind: Kind, _ index: Int) {
      bits = UInt64(kind.rawValue) << 56 | UInt64(truncatingIfNeeded: index) & Self.indexMask
    }

    private static let indexMask: UInt64 = (1 << 56) - 1

    var kind: Kind { Kind(rawValue: UInt8(truncatingIfNeeded: bits >> 56))! }
    /// The object's index among those of its kind.
    var index: Int { Int(bits & Self.indexMask) }

    /// A task: its own steps, a step that wakes it up, cancels it or runs its work on an actor.
    static func task(_ task: TaskID) -> Object { Object(.task, task.rawValue) }
    /// A default actor, by the order the run's steps first touch it (see
    /// `numberActorsByFirstTouch`), or the main actor (`nil`).
    static func actor(_ actor: Int?) -> Object { Object(.actor, actor.map { $0 + 1 } ?? 0) }
    /// The structured children of a task, whose completion order its task group can see.
    static func children(_ parent: TaskID) -> Object { Object(.children, parent.rawValue) }
    /// The notes tasks add to the trace, such as deliveries of streams made with `.effect`.
    static let notes = Object(.notes, 0)
    /// State that tasks share outside actors, such as a stream's buffer or a flag behind a lock,
    /// which the scheduler cannot see, by the first of the tasks that share it, or `nil` for
    /// what every task may share: see `recordSharingOutsideActors`.
    static func outsideActors(_ task: TaskID?) -> Object { Object(.outsideActors, task.map { $0.rawValue + 1 } ?? 0) }
    /// What a task saw outside actors in the step that took it onto an actor, which the actor's
    /// job may rely on: see `recordWakeUps`.
    static func seenBeforeHop(step: Int) -> Object { Object(.seenBeforeHop, step) }
    /// A lock, guarding a stream's buffer, a group's results or the program's own state, by the
    /// order the run first took it: see ``Trace/locks``.
    static func lock(_ lock: Int) -> Object { Object(.lock, lock) }
    /// The timers due at one instant of the virtual clock, which fire in the order they were set:
    /// see ``Trace/timersSet``. The instant is kept to the nanosecond, in 56 bits: two instants
    /// that agree there are taken as one, which can only make two steps dependent that are not.
    static func timersDue(at instant: Duration) -> Object {
      Object(.timersDue, Int(truncatingIfNeeded: instant.nanoseconds))
    }
    /// A word of memory as written, and as touched at all, by its number in the run (see
    /// ``StepMemory``): the race search's rows of the last writes and of the last touches of
    /// each word, never in a step's objects.
    static func wordWritten(_ word: Int32) -> Object { Object(.wordWritten, Int(word)) }
    static func wordTouched(_ word: Int32) -> Object { Object(.wordTouched, Int(word)) }
    /// Whether a task made with `Task {}` has completed, which the task that made it reads when
    /// it awaits it: see `recordChildren`.
    static func completion(_ task: TaskID) -> Object { Object(.completion, task.rawValue) }

    /// The index of the default actor, for an object that is one.
    var defaultActor: Int? { kind == .actor && index > 0 ? index - 1 : nil }

    /// The task, for an object that is one.
    var task: TaskID? { kind == .task ? TaskID(index) : nil }
  }
}

/// New numbers for actors, given in the order they are asked for.
struct ActorNumbering {
  /// By the old number: the new one, or -1.
  private var numbers: [Int] = []
  private var count = 0

  /// Forgets every number given, keeping the storage.
  mutating func removeAll() {
    numbers.removeAll(keepingCapacity: true)
    count = 0
  }

  /// The new number of the actor numbered `actor` before.
  mutating func number(of actor: Int) -> Int {
    if actor >= numbers.count { numbers.append(contentsOf: repeatElement(-1, count: actor + 1 - numbers.count)) }
    if numbers[actor] < 0 {
      numbers[actor] = count
      count += 1
    }
    return numbers[actor]
  }
}
