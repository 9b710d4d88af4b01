import EffectScheduler
import Synchronization

/// The handshake between a program under ``withTestHandler(taskHandling:streamHandling:configuration:isolation:fileID:filePath:line:column:_:test:)``
/// and its test script.
///
/// The program hands over what it does (``submit(_:)``) and waits; the script takes the oldest
/// item once the program has settled, answers it, and waits for the program to settle again.
/// Replies to suspended tasks are handed over on the scheduler's thread when it has nothing else
/// to run, so the program's steps between two effects always run in the same order.
///
/// Every item the program waits on is announced to the scheduler, which then waits for the script
/// without a time limit; each announcement is withdrawn when the item is answered or given up.
final class TestSession: Sendable {
  struct State {
    var scheduler: DeterministicScheduler?
    /// What the program did and the script has not answered yet, oldest first.
    var pending = OldestFirstQueue<PendingEffect>()
    /// How many items the program has handed over.
    var submitted = 0
    /// Threads blocked in a synchronous effect.
    var blockedThreads = 0
    /// Whether the scheduler had nothing to run when it last looked.
    var driverIsIdle = false
    /// Replies and enqueued tasks to hand over on the scheduler's thread. Each keeps an
    /// announcement open until it is handed over, so the scheduler waits for it.
    var handovers: [@Sendable () -> Void] = []
    /// Empty storage for the next handovers, from the last ones handed over.
    var spareHandovers: [@Sendable () -> Void] = []
    /// Tasks held back: until the script enqueues them (`.suspend`), or until the program would
    /// otherwise be stuck (`.ignore`).
    var heldTasks: [TrackedTask] = []
    /// Elements handed to the script and not yet delivered or dropped, in the order they came,
    /// whether the script has taken them yet or not.
    var heldElements: [HeldElement] = []
    /// Tasks the program has created and has not yet waited for at its end.
    var unawaitedTasks = OldestFirstQueue<TrackedTask>()
    var scriptEnded = false
    var programEnded = false
    /// The error the program or its scheduler ended with, described.
    var programError: String?
    /// Whether the program waits on an effect nobody can answer any more.
    var programAbandoned = false
    var failures: [EffectTestFailure] = []
    var settleWaiter: UnsafeContinuation<Void, Never>?
    var endWaiter: UnsafeContinuation<Void, Never>?
  }

  let taskHandling: TaskHandling
  let streamHandling: StreamHandling
  /// Where `withTestHandler` was called, for failures no script line caused.
  let site: CallSite
  let state = Mutex(State())
  /// How many times the program was found settled, so that a script about to wait can spin on
  /// one atomic, without the lock, before it suspends (see ``waitUntilSettled()``).
  let settlements = Atomic<Int>(0)
  /// Where the script runs when it can run on the program's driver thread, between the program's
  /// steps: then a hand-off is a job switch on one thread, not a wake-up of another. `nil` when
  /// the script keeps to the caller's actor or to the scheduler of an outer program.
  let guest: GuestExecutor?

  init(taskHandling: TaskHandling, streamHandling: StreamHandling, site: CallSite, scriptIsGuest: Bool) {
    self.taskHandling = taskHandling
    self.streamHandling = streamHandling
    self.site = site
    guest = scriptIsGuest ? GuestExecutor() : nil
  }

  /// Whether this session's program runs on `scheduler`.
  func controls(_ scheduler: DeterministicScheduler) -> Bool {
    state.withLock { $0.scheduler === scheduler }
  }

  /// The failures so far, oldest first.
  var failures: [EffectTestFailure] {
    state.withLock { $0.failures }
  }

  /// The script's waiter, taken if the program has settled in `state`; a script that is spinning
  /// rather than waiting learns of it through ``settlements``.
  func takeSettleWaiterIfSettled(_ state: inout State) -> UnsafeContinuation<Void, Never>? {
    guard state.isSettled else { return nil }
    settlements.add(1, ordering: .releasing)
    defer { state.settleWaiter = nil }
    return state.settleWaiter
  }

  /// Records `failure` and returns it, for throwing.
  func record(_ failure: EffectTestFailure) -> EffectTestFailure {
    state.withLock { $0.failures.append(failure) }
    return failure
  }
}

extension TestSession.State {
  /// Whether the script may look at the program: the program waits on the script, or has ended.
  var isSettled: Bool {
    if programEnded || programAbandoned || blockedThreads > 0 { return true }
    guard driverIsIdle, handovers.isEmpty else { return false }
    return !pending.isEmpty || !heldTasks.isEmpty || !heldElements.isEmpty
  }
}
