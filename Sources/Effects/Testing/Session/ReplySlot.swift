import EffectScheduler
import Synchronization

/// Where the reply to one effect that the program handed to the test script arrives, and where the
/// program waits for it.
///
/// Storing a reply and handing it over are separate steps so that the session can hand replies
/// over on the scheduler's thread, at a point of its choosing.
///
/// It is not generic over the effect's result: the effects call it from code the compiler cannot
/// specialize, where each use of a generic class looked its metadata up at run time, which took a
/// tenth of a `Task.effect` task's hand-off. The result type is kept as a value instead, to match
/// the script's answer against.
final class ReplySlot: Sendable {
  /// What the script answered.
  enum Reply: @unchecked Sendable {
    /// A value of the effect's result type, which is `Sendable`; the effect casts it back.
    case returned(Any)
    case threw(any Error)
    case yielded
  }

  private struct State {
    var reply: Reply?
    var continuation: UnsafeContinuation<Reply, Never>?
    /// Whether the reply was handed over to a blocked thread.
    var delivered = false
  }

  let isBlocking: Bool
  /// The type of the effect's result, and whether the effect can throw: the script's answer must
  /// be for an effect of the same kind.
  private let resultType: Any.Type
  private let canThrow: Bool
  private let state = Mutex(State())
  /// Wakes a thread blocked in ``waitBlocking(runningJobsOf:)``, which spins briefly before
  /// it parks, so that a script that answers at once costs it no wake-up; only a blocking slot
  /// has one.
  private let arrived: WakeUpSignal?

  /// A slot for an effect that suspends its task, returns `resultType` and, if `canThrow`, may
  /// throw.
  init<Result>(returning resultType: Result.Type, canThrow: Bool) {
    isBlocking = false
    self.resultType = resultType
    self.canThrow = canThrow
    arrived = nil
  }

  /// A slot for a synchronous effect returning `resultType`, which blocks its thread until the
  /// reply comes.
  init<Result>(blockingReturning resultType: Result.Type) {
    isBlocking = true
    self.resultType = resultType
    canThrow = false
    arrived = WakeUpSignal()
  }

  /// Whether the script may answer with replies for an effect that returns `Result` and can throw
  /// or not.
  func accepts<Result>(_: Result.Type, canThrow: Bool) -> Bool {
    resultType == Result.self && self.canThrow == canThrow
  }

  /// Hands `pending` to `session` and suspends until the reply is handed over.
  func wait(submittingTo session: TestSession, _ pending: PendingEffect) async -> Reply {
    await withUnsafeContinuation { continuation in
      state.withLock { $0.continuation = continuation }
      session.submit(pending)
    }
  }

  /// Blocks the calling thread until the reply is handed over; call it after submitting the effect.
  /// A script that runs as a guest of the driver thread (`guest`) has its jobs run here meanwhile,
  /// as only it can answer, and the driver thread may be blocked waiting for this one.
  func waitBlocking(runningJobsOf guest: GuestExecutor?) -> Reply {
    if let guest {
      guest.runQueuedJobs(until: isDelivered, wakingOn: arrived!)
    } else {
      // `resume()` signals once the reply is stored, and only once, so one wake-up is the reply.
      _ = arrived!.wait()
    }
    return state.withLock { $0.reply! }
  }

  private func isDelivered() -> Bool {
    state.withLock { $0.delivered }
  }

  /// Stores what the script answered.
  func store(_ reply: Reply) {
    state.withLock { $0.reply = reply }
  }

  /// Stores the answer "pass the effect to the next handler out".
  func storeYield() {
    store(.yielded)
  }

  /// Stores `failure` as the reply, if the effect can throw; returns whether it could.
  func storeFailure(_ failure: EffectTestFailure) -> Bool {
    guard canThrow else { return false }
    store(.threw(failure))
    return true
  }

  /// The thread of a synchronous effect that no script will answer any more would otherwise stay
  /// blocked for the rest of the process, so it gets the emptiest reply there is: `nil` for an
  /// optional, `()` for `Void`, and otherwise the effect goes to the next handler out, by default
  /// its own implementation. The test has failed by then; the program goes on without it.
  /// Returns whether the slot blocks a thread.
  func storeRelease() -> Bool {
    guard isBlocking else { return false }
    if resultType == Void.self {
      store(.returned(()))
    } else if let optional = resultType as? any ExpressibleByNilLiteral.Type {
      store(.returned(optional.init(nilLiteral: ())))
    } else {
      store(.yielded)
    }
    return true
  }

  /// Hands the stored reply to the program.
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
