import EffectScheduler
import Synchronization

/// The type-erased view of a ``ReplySlot`` that the session needs to answer an effect it cannot
/// name the types of.
protocol AnswerSlot: Sendable {
  /// Whether the program waits for the reply by blocking its thread.
  var isBlocking: Bool { get }
  /// Stores the answer "pass the effect to the next handler out".
  func storeYield()
  /// Stores `failure` as the reply, if the effect can throw; returns whether it could.
  func storeFailure(_ failure: EffectTestFailure) -> Bool
  /// For an effect that blocks its thread and can no longer be answered, stores the reply that
  /// lets the thread go on; returns whether the slot blocks a thread.
  func storeRelease() -> Bool
  /// Hands the stored reply to the program.
  func resume()
}

/// Where the reply to one effect that the program handed to the test script arrives, and where the
/// program waits for it.
///
/// Storing a reply and handing it over are separate steps so that the session can hand replies
/// over on the scheduler's thread, at a point of its choosing.
final class ReplySlot<Value: Sendable, Failure: Error>: AnswerSlot {
  /// What the script answered.
  enum Reply: Sendable {
    case returned(Value)
    case threw(Failure)
    case yielded
  }

  private struct State {
    var reply: Reply?
    var continuation: UnsafeContinuation<Reply, Never>?
    /// Whether the reply was handed over to a blocked thread.
    var delivered = false
  }

  let isBlocking: Bool
  private let state = Mutex(State())
  /// Wakes a thread blocked in ``waitBlocking(runningGuestJobsOf:)``, which spins briefly before
  /// it parks, so that a script that answers at once costs it no wake-up; only a blocking slot
  /// has one.
  private let arrived: WakeUpSignal?

  /// A slot for an effect that suspends its task.
  init() {
    isBlocking = false
    arrived = nil
  }

  /// A slot for an effect that blocks its thread until `arrived` is signalled with the reply:
  /// a signal of its own, or the one a script running on the same thread wakes it with.
  init(blockingUntil arrived: WakeUpSignal) {
    isBlocking = true
    self.arrived = arrived
  }

  /// Hands `pending` to `session` and suspends until the reply is handed over.
  func wait(submittingTo session: TestSession, _ pending: PendingEffect) async -> Reply {
    await withUnsafeContinuation { continuation in
      state.withLock { $0.continuation = continuation }
      session.submit(pending)
    }
  }

  /// Blocks the calling thread until the reply is handed over; call it after submitting the effect.
  /// When the script runs on this thread (`host`), its jobs run here meanwhile, as only it can
  /// answer.
  func waitBlocking(runningGuestJobsOf host: GuestExecutor?) -> Reply {
    if let host {
      host.runQueuedJobs(until: isDelivered)
    } else {
      // A signal of its own: `resume()` gives it once the reply is stored, and only once.
      _ = arrived!.wait()
    }
    return state.withLock { $0.reply! }
  }

  private func isDelivered() -> Bool {
    state.withLock { $0.delivered }
  }

  func store(_ reply: Reply) {
    state.withLock { $0.reply = reply }
  }

  func storeYield() {
    store(.yielded)
  }

  func storeFailure(_ failure: EffectTestFailure) -> Bool {
    guard let failure = failure as? Failure else { return false }
    store(.threw(failure))
    return true
  }

  /// The thread of a synchronous effect that no script will answer any more would otherwise stay
  /// blocked for the rest of the process, so it gets the emptiest reply there is: `nil` for an
  /// optional, `()` for `Void`, and otherwise the effect goes to the next handler out, by default
  /// its own implementation. The test has failed by then; the program goes on without it.
  func storeRelease() -> Bool {
    guard isBlocking else { return false }
    if Value.self == Void.self {
      store(.returned(() as! Value))
    } else if let optional = Value.self as? any ExpressibleByNilLiteral.Type {
      store(.returned(optional.init(nilLiteral: ()) as! Value))
    } else {
      store(.yielded)
    }
    return true
  }

  func resume() {
    if let arrived {
      state.withLock { $0.delivered = true }
      arrived.signal()
      return
    }
    let (continuation, reply) = state.withLock { state in
      defer { state.continuation = nil }
      return (state.continuation, state.reply)
    }
    if let continuation, let reply { continuation.resume(returning: reply) }
  }
}
