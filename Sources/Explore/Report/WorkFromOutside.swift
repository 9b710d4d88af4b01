/// Why `explore` fails a run that otherwise passed: work from outside the scheduler's control took
/// part in it, so its outcome may depend on timing that no schedule decides.
public struct WorkFromOutside: Error, Hashable, Sendable, CustomStringConvertible {
  /// The steps whose job was handed back from outside the scheduler's control; empty when the
  /// run stopped before such a job ran.
  public var steps: [Int]
  /// The tasks those jobs resumed, as the trace names them (`#1 waiter`), where it can tell.
  public var resumed: [String]
  /// The work the program handed to Dispatch, each as what it called, when and by which task
  /// (`DispatchQueue.async at step 1 by #1 waiter`). Such work runs at its own time: what it does
  /// to the run, resuming a continuation say, may happen before the task waits, unseen, so a run
  /// that hands work over fails alike whether or not anything was seen to come back (64-bit Linux).
  public var handedOver: [String]

  /// Creates the failure.
  public init(steps: [Int], resumed: [String] = [], handedOver: [String] = []) {
    self.steps = steps
    self.resumed = resumed
    self.handedOver = handedOver
  }

  /// `work from outside the scheduler took part at steps 4, 9 (resuming #1 waiter): …`.
  public var description: String {
    let shown = steps.prefix(20).map(String.init).joined(separator: ", ") + (steps.count > 20 ? ", …" : "")
    let tasks = resumed.isEmpty ? "" : " (resuming \(resumed.joined(separator: ", ")))"
    let at = steps.isEmpty ? "" : " at step\(steps.count == 1 ? "" : "s") \(shown)"
    let over = handedOver.isEmpty ? "" : "; the program handed work to \(handedOver.prefix(5).joined(separator: ", "))\(handedOver.count > 5 ? ", …" : "")"
    return "work from outside the scheduler took part\(at)\(tasks)\(over): "
      + "a thread, dispatch queue or real timer the scheduler does not control handed work back, or may have, so this "
      + "outcome may depend on real timing that no schedule decides. Keep such work out of the explored body, "
      + "or replace it with an effect or a task the scheduler runs."
  }
}
