import Dispatch
import EffectScheduler
import Foundation

let plainSpawns = 200_000

/// Plain `Task {}` spawns a second from a nonisolated task, after one scheduler run that installs
/// the runtime hooks when `installingHooks`.
func plainSpawnRate(installingHooks: Bool) async -> Double {
  if installingHooks { _ = try? await DeterministicScheduler.run { await Task.yield() } }
  return await Task.detached {
    var sum = 0
    let start = DispatchTime.now().uptimeNanoseconds
    for index in 0..<plainSpawns { sum &+= await Task { index }.value }
    precondition(sum > 0)
    return Double(plainSpawns) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
  }.value
}

/// Runs this executable again to measure ``plainSpawnRate(installingHooks:)`` in a fresh process.
func plainSpawnRateInChildProcess(installingHooks: Bool) -> Double {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
  process.arguments = [installingHooks ? "plain-spawn-hooked" : "plain-spawn-bare"]
  let output = Pipe()
  process.standardOutput = output
  do { try process.run() } catch { return 0 }
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
}

/// A search field debounced with a 300 ms sleep in a plain task, each keystroke cancelling the
/// previous search: two keystrokes, and a search that answers after a sleep of its own. The model
/// is `@MainActor`, as app code is.
@Sendable func debouncedSearch() async {
  let field = SearchField()
  await field.type("a")
  await field.type("ab")
  await field.settle()
}

@MainActor final class SearchField {
  private var pending: Task<Void, Never>?
  private(set) var results: [String] = []

  func type(_ query: String) {
    pending?.cancel()
    pending = Task {
      do {
        try await Task.sleep(for: .milliseconds(300))
        try await Task.sleep(for: .milliseconds(50))
        self.results.append(query)
      } catch {}
    }
  }

  func settle() async { await pending?.value }
}

/// `children` group children that each update one actor, yield, and update it again: most of
/// its schedules need more than two preemptions.
func actorUpdates(children: Int) async {
  let tally = Tally()
  await withDiscardingTaskGroup { group in
    for _ in 0..<children {
      group.addTask {
        await tally.add()
        await Task.yield()
        await tally.add()
      }
    }
  }
}

/// A counter behind an actor.
actor Tally {
  private var count = 0

  /// Adds one.
  func add() { count += 1 }
}
