import Synchronization

/// A ledger opened once, by whichever caller comes first. With `checksThenOpens`, the check and
/// the open are two atomic operations; otherwise one compare-exchange decides.
public final class Ledger: Sendable {
  private let isOpen = Atomic<Bool>(false)
  /// How many times the ledger was opened.
  public let openings = Atomic<Int>(0)
  private let checksThenOpens: Bool

  /// Creates a closed ledger.
  public init(checksThenOpens: Bool) { self.checksThenOpens = checksThenOpens }

  /// Opens the ledger unless it is open.
  public func open() {
    if checksThenOpens {
      if isOpen.load(ordering: .acquiring) { return }
      isOpen.store(true, ordering: .releasing)
    } else if !isOpen.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
      return
    }
    openings.wrappingAdd(1, ordering: .relaxed)
  }
}

/// A balance kept where the compiler cannot check it. With `guarded`, a `Mutex` orders each
/// deposit; otherwise nothing does, and two deposits at once are a data race.
public final class Balance: @unchecked Sendable {
  private var cents = 0
  private let lock = Mutex(())
  private let guarded: Bool

  /// Creates an empty balance.
  public init(guarded: Bool) { self.guarded = guarded }

  /// Adds `amount` cents.
  public func deposit(_ amount: Int) {
    if guarded {
      lock.withLock { _ in cents += amount }
    } else {
      cents += amount
    }
  }

  /// The cents deposited so far.
  public var total: Int { lock.withLock { _ in cents } }
}

/// An account's history, kept by an actor.
public actor History {
  /// What was recorded, in order.
  public private(set) var entries: [String] = []

  /// Creates an empty history.
  public init() {}

  /// Records `entry`.
  public func record(_ entry: String) { entries.append(entry) }
}
