// A search field debounces keystrokes by 300 ms with `Task.sleep` in a plain `Task {}`, and
// cancels the previous search on each keystroke. The user types "s", waits exactly 300 ms and
// types "w": the timer of the first search and the cancellation by the second keystroke fall due
// together, and their order decides whether the slow answer for "s" overwrites the one for "sw".
// Sleeps wait on each run's virtual clock, so hundreds of runs take no time at all, and the
// default clock's `now` reads that virtual time: the field and this program use `ContinuousClock`
// as they would in production.
import EffectScheduler
import Effects
import Explore
import Synchronization

struct StaleResults: Error, CustomStringConvertible {
  let description: String
}

/// The virtual time the last run took, in milliseconds.
enum LastRun { static let milliseconds = Atomic<Int>(0) }

func typeSW(dropsAnswersOfCancelledSearches: Bool) -> @Sendable () async throws -> Void {
  { @MainActor in
    let clock = ContinuousClock()
    let start = clock.now
    let field = SearchField(dropsAnswersOfCancelledSearches: dropsAnswersOfCancelledSearches)
    let first = field.type("s")
    try await Task.sleep(for: .milliseconds(300))
    let second = field.type("sw")
    await first.value
    await second.value
    LastRun.milliseconds.store(Int(start.duration(to: clock.now) / .milliseconds(1)), ordering: .relaxed)
    let expected = Search.catalog.filter { $0.hasPrefix(field.text) }
    guard field.results == expected else {
      throw StaleResults(description: "the field says \"\(field.text)\" but lists \(field.results), not \(expected)")
    }
  }
}

let quiet = ExploreConfiguration(progressInterval: nil)

print("Exploring the field that keeps the answer of a cancelled search…\n")
do {
  let summary = try await explore(.exhaustive, configuration: quiet, typeSW(dropsAnswersOfCancelledSearches: false))
  print("no stale results?! \(summary)")
} catch {
  print(error)
}

print("\nExploring the field that drops it…")
let summary = try await explore(.exhaustive, configuration: quiet, typeSW(dropsAnswersOfCancelledSearches: true))
print("every schedule passes: \(summary)")
let virtual = LastRun.milliseconds.load(ordering: .relaxed)
let realSleeping = Double(virtual * summary.schedules) / 1000
print("each run spans \(virtual) ms of virtual time: \(realSleeping) s of sleeping, had the sleeps been real")
