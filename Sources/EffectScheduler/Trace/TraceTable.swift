/// Renders a ``Trace`` as a table: a row a step, a column a task, plus one for actor jobs.
struct TraceTable {
  private let trace: Trace
  /// The tasks given a column, in order: every task of the trace, or, for the last steps of a
  /// long run, those the steps shown name, so that the table grows with those steps alone.
  private let shownTasks: [TaskInfo]
  /// For each task of the trace, its column, or -1 for a task not shown.
  private let columnOfTask: [Int]

  /// The first step shown: the rows of steps that fired a timer early start there too.
  private let firstStep: Int

  /// A table of the steps of `trace` from `firstStep` on, whose events it holds, and of every
  /// task, or, with `onlyTasksNamed`, of the tasks its events and notes name.
  init(_ trace: Trace, from firstStep: Int = 0, onlyTasksNamed: Bool = false) {
    self.trace = trace
    self.firstStep = firstStep
    guard onlyTasksNamed else {
      shownTasks = trace.tasks
      columnOfTask = Array(trace.tasks.indices)
      return
    }
    var named = Set(trace.events.compactMap(\.task))
    named.formUnion(trace.notes.map(\.task))
    shownTasks = trace.tasks.filter { named.contains($0.id) }
    var columnOfTask = Array(repeating: -1, count: trace.tasks.count)
    for (column, task) in shownTasks.enumerated() { columnOfTask[task.id.rawValue] = column }
    self.columnOfTask = columnOfTask
  }

  /// How many tasks have a column.
  var columnCount: Int { shownTasks.count }

  func render() -> String {
    let columns = shownTasks.count + 1
    var rows: [(step: Int, cells: [String])] = []
    var points = Array(repeating: 0, count: trace.tasks.count)
    for event in trace.events {
      if rows.last?.step != event.step {
        rows.append((event.step, Array(repeating: "", count: columns)))
      }
      let column = event.task.map { columnOfTask[$0.rawValue] } ?? shownTasks.count
      let text = cellText(event, points: &points)
      let cell = rows[rows.count - 1].cells[column]
      let separator = cell.isEmpty || text.hasPrefix("→") ? "" : " "
      rows[rows.count - 1].cells[column] = cell + separator + text
    }
    addEarlyFirings(to: &rows, columns: columns)
    addNotes(to: &rows)
    let showsTime = !trace.clockAdvances.isEmpty
    let header = ["step"] + (showsTime ? ["time"] : []) + shownTasks.map(\.description) + ["actors"]
    let body = rows.map { row in
      ["\(row.step)"] + (showsTime ? [trace.time(atStep: row.step).compactDescription] : []) + row.cells
    }
    var widths = header.map(\.count)
    for row in body {
      for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    let actorColumn = columns + (showsTime ? 1 : 0)
    let showActors = body.contains { !$0[actorColumn].isEmpty }
    func line(_ cells: [String]) -> String {
      let shown = showActors ? cells : Array(cells.dropLast())
      return shown.enumerated().map { index, cell in
        index == 0
          ? String(repeating: " ", count: widths[0] - cell.count) + cell
          : cell + String(repeating: " ", count: widths[index] - cell.count)
      }.joined(separator: " | ").trimmingTrailingSpaces()
    }
    return ([line(header)] + body.map(line)).joined(separator: "\n")
  }

  /// Adds a row for each step that fired a timer early: such a step runs no job of its own, so no
  /// event marks it, only the clock's move at it. Its text stands in the actors' column.
  private func addEarlyFirings(to rows: inout [(step: Int, cells: [String])], columns: Int) {
    var stepsShown = Set(rows.map(\.step))
    for advance in trace.clockAdvances where advance.step >= firstStep && advance.step < trace.steps && stepsShown.insert(advance.step).inserted {
      var cells = Array(repeating: "", count: columns)
      cells[columns - 1] = "timer fired early"
      let index = rows.firstIndex { $0.step > advance.step } ?? rows.count
      rows.insert((advance.step, cells), at: index)
    }
  }

  /// Ends each cell with the notes its task made at its step, after the segment that made them.
  private func addNotes(to rows: inout [(step: Int, cells: [String])]) {
    guard !trace.notes.isEmpty else { return }
    var rowOfStep: [Int: Int] = [:]
    for (index, row) in rows.enumerated() { rowOfStep[row.step] = index }
    for note in trace.notes {
      guard let row = rowOfStep[note.step] else { continue }
      let column = columnOfTask[note.task.rawValue]
      let cell = rows[row].cells[column]
      rows[row].cells[column] = cell + (cell.isEmpty ? "" : " ") + note.text
    }
  }

  private func cellText(_ event: TraceEvent, points: inout [Int]) -> String {
    let outside = (event.fromOutside ? "(outside) " : "") + (event.onMainActor ? "MainActor " : "")
    guard let id = event.task?.rawValue else { return actorJobText(event) }
    switch event.kind {
    case .spawned: return "spawned"
    case .started: return outside + "start"
    case .resumed: return outside + "\(points[id])"
    case .suspended:
      points[id] += 1
      return "→\(points[id])"
    case .paused: return "→pause" + (trace.lockPauses[event.step].map { " " + $0 } ?? "")
    case .completed: return "→end"
    case .cancelled: return "cancelled"
    case .actorJob: return "job"
    }
  }

  /// `Account#2 for #1 checkout, #3 refund`: the actor, and the tasks whose work its job ran.
  private func actorJobText(_ event: TraceEvent) -> String {
    let actor = event.actor.map(trace.actorName) ?? "job"
    guard let tasks = trace.actorJobTasks[event.step] ?? event.scheduledBy.map({ [$0] }) else { return actor }
    return actor + " for " + tasks.map { trace[task: $0]?.description ?? $0.description }.joined(separator: ", ")
  }
}

extension String {
  func trimmingTrailingSpaces() -> String {
    var result = self
    while result.last == " " { result.removeLast() }
    return result
  }
}
