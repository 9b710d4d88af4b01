/// A job of the run that paused at a lock: before taking it, at the scheduling point of its
/// acquire, or waiting for it while another task held it. The trace's table names the lock in the
/// cell of the step that paused (see ``Trace/lockPauses``).
///
/// The lock's name is made only when a trace is built, which a search does for few runs: a pause
/// records the lock and, once the run is over, its number among the run's locks.
struct LockPause {
  /// The step that paused.
  let step: Int
  /// The address by which the run numbers the lock: the drop-in's record, or the program's lock.
  let address: UInt
  /// The lock, for its kind and where the program made it; for a program's lock the scheduler
  /// does not control, a record that only says its kind.
  let lock: ControlledLock
  /// Whether the job waits for the lock, held by another task, rather than pausing before it.
  let waits: Bool
  /// The lock's number in the run, once the run is over (see ``numbered(in:)``).
  var number: Int?

  /// Records a pause at the drop-in lock `lock`.
  init(step: Int, at lock: ControlledLock, waits: Bool) {
    self.step = step
    self.address = UInt(bitPattern: Unmanaged.passUnretained(lock).toOpaque())
    self.lock = lock
    self.waits = waits
  }

  /// Records a pause at the program's lock at `address`, of the kind that `kind` says.
  init(step: Int, atLockAt address: UInt, kind: String, waits: Bool) {
    self.step = step
    self.address = address
    self.lock = ControlledLock(kind: { kind })
    self.waits = waits
  }

  /// The pause with the lock's number among the run's, from `lockNumbers`, once the run is over:
  /// a lock gets its number at its first acquire, which may come after its first pause.
  func numbered(in lockNumbers: [UInt: Int]) -> LockPause {
    var numbered = self
    numbered.number = lockNumbers[address].flatMap { $0 >= 0 ? $0 : nil }
    return numbered
  }

  /// `before EffectLock #0 (made at Inbox.swift:12)`, `waiting for EffectLock #0 (made at …)`:
  /// what follows `→pause` in the step's cell.
  var text: String {
    (waits ? "waiting for " : "before ") + lock.name(number: number)
  }
}
