/// Two accesses to the same memory by different tasks, at least one a write, that nothing the run
/// saw synchronize orders: no actor, lock, atomic, spawn, completion or resumed continuation
/// between them. Found in code built instrumented (`-Xfrontend -sanitize=thread`).
public struct DataRace: Hashable, Sendable, CustomStringConvertible {
  /// One of the two accesses.
  public struct Access: Hashable, Sendable, CustomStringConvertible {
    /// The task that made it, as the trace names it.
    public var task: String
    /// Whether it wrote.
    public var writes: Bool
    /// Where in the code: file and line where the binary has debug information, else the
    /// function.
    public var location: String
    /// The step that made it.
    public var step: Int

    /// `task #1 wrote at Counter.swift:12 (step 3)`.
    public var description: String {
      "task \(task) \(writes ? "wrote" : "read") at \(location) (step \(step))"
    }
  }

  /// The earlier access.
  public var first: Access
  /// The later access.
  public var second: Access

  /// `task #1 wrote at Counter.swift:12 (step 3) and task #2 read at Counter.swift:12 (step 5)`.
  public var description: String {
    "\(first) and \(second)"
  }
}
