// Two philosophers share two forks, each guarded by an async lock. Each picks up the fork on
// the left, thinks, then the fork on the right: if both take their left fork first, nobody
// can eat. Explore finds that schedule and reports the deadlock, naming every stuck philosopher;
// the fixed table, where everyone takes the lower-numbered fork first, passes every schedule.
import Effects
import Explore

/// A fork guarded like a mutex: `pickUp()` suspends on a continuation until `putDown()` hands it over.
actor Fork {
  private var isTaken = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  func pickUp() async {
    guard isTaken else {
      isTaken = true
      return
    }
    await withCheckedContinuation { waiters.append($0) }
  }

  func putDown() {
    if waiters.isEmpty {
      isTaken = false
    } else {
      waiters.removeFirst().resume()
    }
  }
}

/// How many philosophers sit at the table.
let seats = 2

func dinner(orderedForks: Bool) -> @Sendable () async throws -> Void {
  {
    let forks = (0..<seats).map { _ in Fork() }
    let philosophers = (0..<seats).map { seat in
      Task.effect(name: "philosopher \(seat)") {
        var first = seat
        var second = (seat + 1) % seats
        if orderedForks && first > second { swap(&first, &second) }
        await forks[first].pickUp()
        await Task.yield()  // thinking
        await forks[second].pickUp()
        await forks[second].putDown()
        await forks[first].putDown()
      }
    }
    for philosopher in philosophers { await philosopher.value }
  }
}

var configuration = ExploreConfiguration()
configuration.scheduler.outsideWorldTimeout = .milliseconds(200)

print("Exploring the table where everyone reaches left first…\n")
do {
  let summary = try await explore(.exhaustive, configuration: configuration, dinner(orderedForks: false))
  print("no deadlock?! \(summary)")
} catch {
  print(error)
}

print("\nExploring the table where everyone takes the lower-numbered fork first…")
let summary = try await explore(.exhaustive, configuration: configuration, dinner(orderedForks: true))
print("every schedule passes: \(summary)")
