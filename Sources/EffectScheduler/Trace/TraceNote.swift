/// A line of text that a task added to the trace at one step, such as `ticks ← 3` for an element
/// that a stream made with `AsyncStream.effect` delivered.
///
/// Notes sit beside the ``Trace/events``, in the cell of their task and step in ``Trace/table``:
///
/// ```
/// step | #0 root | #1 ticks
///    3 |         | 0 ticks ← 3 →1
/// ```
public struct TraceNote: Hashable, Sendable, CustomStringConvertible {
  /// The step during which the note was made.
  public var step: Int
  /// The task whose job made it.
  public var task: TaskID
  /// What it says.
  public var text: String

  /// Creates a note.
  package init(step: Int, task: TaskID, text: String) {
    self.step = step
    self.task = task
    self.text = text
  }

  /// `step 3: #1 ticks ← 3`.
  public var description: String { "step \(step): \(task) \(text)" }
}
