import EffectScheduler
import Testing

/// A root and a task named `ticks` that each ran twice, the task noting an element at step 1.
private let trace = Trace(
  tasks: [
    TaskInfo(id: TaskID(0), name: "root", parent: nil, kind: .root),
    TaskInfo(id: TaskID(1), name: "ticks", parent: TaskID(0), kind: .unstructured),
  ],
  events: [
    TraceEvent(step: 0, task: TaskID(0), kind: .started), TraceEvent(step: 0, task: TaskID(0), kind: .suspended),
    TraceEvent(step: 1, task: TaskID(1), kind: .started), TraceEvent(step: 1, task: TaskID(1), kind: .completed),
    TraceEvent(step: 2, task: TaskID(0), kind: .resumed), TraceEvent(step: 2, task: TaskID(0), kind: .completed),
  ],
  steps: 3,
  notes: [TraceNote(step: 1, task: TaskID(1), text: "ticks ← 3")])

@Suite("Trace notes")
struct TraceNoteTests {
  @Test("a note ends the cell of its task and step")
  func table() {
    #expect(trace.table == """
      step | #0 root | #1 ticks
         0 | start→1 |
         1 |         | start→end ticks ← 3
         2 | 1→end   |
      """)
  }

  @Test("a table of the last steps keeps the notes of the steps it shows, and only those")
  func lastSteps() {
    #expect(trace.table(lastSteps: 2).contains("start→end ticks ← 3"))
    #expect(!trace.table(lastSteps: 1).contains("ticks ← 3"))
  }

  @Test("notes make traces differ")
  func equality() {
    var other = trace
    other.notes[0].text = "ticks ← 4"
    #expect(other != trace)
    #expect(trace.notes.first?.description == "step 1: #1 ticks ← 3")
  }
}
