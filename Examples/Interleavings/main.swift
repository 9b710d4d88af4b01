// Runs a small program with an actor-reentrancy bug under the deterministic scheduler: first in
// first-in-first-out order, then under a few random seeds, then replays the schedule that lost
// money and prints its trace.
import EffectScheduler
import Effects

/// A seat counter whose `book` checks availability, suspends to "charge the card", then books:
/// two customers can both see the last seat as free.
actor Flight {
  private(set) var seatsLeft = 1
  private(set) var tickets: [String] = []

  func book(for customer: String) async -> Bool {
    guard seatsLeft > 0 else { return false }
    await chargeCard(of: customer)
    seatsLeft -= 1
    tickets.append(customer)
    return true
  }

  private func chargeCard(of customer: String) async { await Task.yield() }
}

/// Two customers race for the last seat; returns the tickets sold.
@Sendable func lastSeatRace() async -> [String] {
  let flight = Flight()
  let alice = Task.effect(name: "Alice") { await flight.book(for: "Alice") }
  let bob = Task.effect(name: "Bob") {
    await browse()
    return await flight.book(for: "Bob")
  }
  _ = await (alice.value, bob.value)
  return await flight.tickets
}

/// Looking at seat maps: two suspension points before Bob tries to book.
func browse() async {
  await Task.yield()
  await Task.yield()
}

func describe(_ tickets: [String]) -> String {
  tickets.count > 1 ? "\(tickets.count) tickets for 1 seat \(tickets)  <- overbooked" : "1 ticket \(tickets)"
}

let fifo = try await DeterministicScheduler.run(strategy: .fifo) { await lastSeatRace() }
print("FIFO:     \(describe(fifo.value))")

var overbooked: Execution<[String]>?
for seed: UInt64 in 0..<8 {
  let execution = try await DeterministicScheduler.run(strategy: .random(seed: seed)) { await lastSeatRace() }
  print("seed \(seed):   \(describe(execution.value))   schedule \(execution.schedule)")
  if execution.value.count > 1 { overbooked = overbooked ?? execution }
}

if let overbooked {
  let replay = try await DeterministicScheduler.run(strategy: .replay(overbooked.schedule)) { await lastSeatRace() }
  print("\nReplaying \(overbooked.schedule): \(describe(replay.value)), same trace: \(replay.trace == overbooked.trace)")
  print(replay.trace.table)
}
