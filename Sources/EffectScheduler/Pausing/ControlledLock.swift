import Synchronization

/// What a scheduler knows of one lock taken through a drop-in of the Effects module: which task of
/// which run holds it. Only the thread running a run's step touches it.
@usableFromInline
package final class ControlledLock: @unchecked Sendable {
  /// What the lock is, for reports: `EffectLock`, `EffectMutex<Int>`; worked out when needed.
  private let describeKind: @Sendable () -> String
  var kind: String { describeKind() }
  /// Where the program made the lock, which tells it from others of its kind in reports.
  let madeAt: (fileID: String, line: Int)?
  /// The task that holds the lock, in run ``holderRun``; a holder of another run holds nothing.
  var holder: TaskID?
  @usableFromInline @exclusivity(unchecked) var holderRun: UInt64 = 0

  /// Creates the record of a lock of `kind`, made at `fileID`:`line` in the program's code, when
  /// known.
  package init(kind: @escaping @Sendable () -> String, madeAt fileID: String? = nil, line: Int = 0) {
    describeKind = kind
    madeAt = fileID.map { ($0, line) }
  }

  /// Whether a task of some run holds the lock, as far as the lock knows: a run that ended may
  /// have left it held.
  @inlinable
  package var isHeldUnderControl: Bool { holderRun != 0 }

  /// Lets go of the lock outside the scheduler's control: a job of a run that ended goes on, and
  /// unlocks what it locked under control.
  @usableFromInline
  package func forget() {
    holder = nil
    holderRun = 0
  }

  /// `EffectLock #2 (made at Inbox.swift:12)`: the lock's kind, its `number` among the run's
  /// locks, when it has one, and where the program made it, when known.
  func name(number: Int?) -> String {
    kind + (number.map { " #\($0)" } ?? "") + (madeAt.map { " (made at \($0.fileID):\($0.line))" } ?? "")
  }

  /// The task of run `run` that holds the lock, if any.
  func holder(inRun run: UInt64) -> TaskID? {
    holderRun == run ? holder : nil
  }
}

/// Numbers each run, so that a lock left held by a run that ended is free in the next.
enum RunSerial {
  private static let last = Atomic<UInt64>(0)

  static func next() -> UInt64 {
    last.add(1, ordering: .relaxed).newValue
  }
}
