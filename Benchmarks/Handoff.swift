import Dispatch
import EffectScheduler
import Effects

/// The echo program's terminal, answered by the script: nothing reaches a real terminal.
enum BenchmarkConsole {
  static let readLine = Effect<String?>("Console.readLine") { nil }
  static let print = Effect<String, Void>("Console.print") { _ in }
}

/// A lookup each task performs once, answered by the script.
let lookUp = AsyncEffect<Int, Int>("Numbers.lookUp") { $0 }

/// The cost of a hand-off between a program and its `withTestHandler` script, in the two programs
/// Swift Effect was measured with: an echo of 5,000 lines (10,001 synchronous effects, the last
/// `readLine` answered with `nil`), and 1,000 `Task.effect` tasks that each perform one
/// asynchronous effect. Each is timed from a nonisolated task, best of `repetitions`, beside the
/// floor: the same tasks under a scheduler with no script, their effect running its default.
func benchmarkHandoff() async throws {
  let lines = 5_000
  let tasks = 1_000
  let repetitions = 7
  let (echoSeconds, taskSeconds, floorSeconds) = try await Task.detached {
    var echo = Double.infinity
    var spawned = Double.infinity
    var floor = Double.infinity
    for _ in 0..<repetitions {
      var start = DispatchTime.now().uptimeNanoseconds
      try await withTestHandler {
        while let line = BenchmarkConsole.readLine() { BenchmarkConsole.print(line) }
      } test: { effect in
        for _ in 0..<lines {
          try await effect.expect(BenchmarkConsole.readLine, return: "line")
          try await effect.expect(BenchmarkConsole.print) { _ in }
        }
        try await effect.expect(BenchmarkConsole.readLine, return: nil)
      }
      echo = min(echo, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
      start = DispatchTime.now().uptimeNanoseconds
      let sum = try await withTestHandler {
        let handles = (0..<tasks).map { index in Task.effect { await lookUp(index) } }
        var sum = 0
        for handle in handles { sum += await handle.value }
        return sum
      } test: { effect in
        for _ in 0..<tasks { try await effect.expect(lookUp) { $0 + 1 } }
      }
      precondition(sum == tasks * (tasks + 1) / 2)
      spawned = min(spawned, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
      start = DispatchTime.now().uptimeNanoseconds
      let unscripted = try await DeterministicScheduler.run {
        let handles = (0..<tasks).map { index in Task.effect { await lookUp(index) } }
        var sum = 0
        for handle in handles { sum += await handle.value }
        return sum
      }.value
      precondition(unscripted == tasks * (tasks - 1) / 2)
      floor = min(floor, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return (echo, spawned, floor)
  }.value
  print("\nwithTestHandler hand-off, release, best of \(repetitions):")
  print("  echo, \(2 * lines + 1) synchronous effects: \(format(echoSeconds * 1e6 / Double(2 * lines + 1))) µs per effect  (target <= 10; Swift Effect 76-127)")
  print("  \(tasks) Task.effect tasks, one asynchronous effect each: \(format(taskSeconds * 1e6 / Double(tasks))) µs per task  (target <= 10; Swift Effect 126-201)")
  print("  the same tasks with no script, under the scheduler alone: \(format(floorSeconds * 1e6 / Double(tasks))) µs per task  (the floor)")
}
