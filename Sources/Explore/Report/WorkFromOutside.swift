/// Why `explore` fails a run that otherwise passed: work from outside the scheduler's control took
/// part in it, so its outcome may depend on timing that no schedule decides.
public struct WorkFromOutside: Error, Hashable, Sendable, CustomStringConvertible {
  /// The steps whose job was handed back from outside the scheduler's control; empty when the
  /// run stopped before such a job ran.
  public var steps: [Int]
  /// The tasks those jobs resumed, as the trace names them (`#1 waiter`), where it can tell.
  public var resumed: [String]

  /// Creates the failure.
  public init(steps: [Int], resumed: [String] = []) {
    self.steps = steps
    self.resumed = resumed
  }

  /// `work from outside the scheduler took part at steps 4, 9 (resuming #1 waiter): …`.
  public var description: String {
    let shown = steps.prefix(20).map(String.init).joined(separator: ", ") + (steps.count > 20 ? ", …" : "")
    let tasks = resumed.isEmpty ? "" : " (resuming \(resumed.joined(separator: ", ")))"
    let at = steps.isEmpty ? "" : " at step\(steps.count == 1 ? "" : "s") \(shown)"
    return "work from outside the scheduler took part\(at)\(tasks): "
      + "a thread, dispatch queue or real timer the scheduler does not control handed work back, so this "
      + "outcome may depend on real timing that no schedule decides. Keep such work out of the explored body, "
      + "or replace it with an effect or a task the scheduler runs."
  }
}
