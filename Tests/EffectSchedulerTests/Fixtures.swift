import EffectScheduler
import Effects

/// Three tasks, A, B and C, each running three segments separated by `Task.yield()`. Returns the
/// order in which the segments ran, as `A0 B0 …`.
@Sendable func threeTasksOfThreeSegments() async -> [String] {
  let log = Log()
  let names: [String] = ["A", "B", "C"]
  let tasks = names.map { name in
    Task.effect(name: name) {
      for segment in 0..<3 {
        await log.append("\(name)\(segment)")
        if segment < 2 { await Task.yield() }
      }
    }
  }
  for task in tasks { await task.value }
  return await log.entries
}

/// An append-only log that tasks write to from anywhere.
actor Log {
  private(set) var entries: [String] = []
  func append(_ entry: String) { entries.append(entry) }
}

/// The order of task names in a trace, one entry a job.
func runOrder(_ trace: Trace) -> [String] {
  trace.runOrder.map { id in id.flatMap { trace[task: $0]?.name } ?? "actor" }
}
