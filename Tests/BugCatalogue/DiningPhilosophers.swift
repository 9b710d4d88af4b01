import Effects

/// Philosophers around a table with a fork between each two neighbours, each fork an
/// ``AsyncLock`` actor. Each philosopher picks up one fork, thinks (an await), picks up the
/// other, eats, and puts both down. When every philosopher reaches left first, all of them can
/// end up holding their left fork and waiting forever for the right one: a deadlock. Taking the
/// lower-numbered fork first breaks the cycle. `spawn` makes the philosophers.
private func dinner(seats: Int, orderedForks: Bool, _ spawn: Spawn) async {
  let forks = (0..<seats).map { _ in AsyncLock() }
  let philosophers = (0..<seats).map { seat in
    spawn(name: "philosopher \(seat)") {
      var first = seat
      var second = (seat + 1) % seats
      if orderedForks, first > second { swap(&first, &second) }
      await forks[first].lock()
      await Task.yield()  // thinking
      await forks[second].lock()
      await forks[second].unlock()
      await forks[first].unlock()
    }
  }
  for philosopher in philosophers { await philosopher.value }
}

extension ClassicBug {
  /// Three dining philosophers who each take the left fork first: a deadlock.
  public static let diningPhilosophers3 = ClassicBug(
    name: "dining philosophers, 3 seats: deadlock when everyone reaches left first",
    buggy: { spawn in await dinner(seats: 3, orderedForks: false, spawn) },
    fixed: { spawn in await dinner(seats: 3, orderedForks: true, spawn) },
    randomBudget: 20, pctBudget: 20, exhaustiveLimit: 2_000, configuration: .deadlocking)

  /// Five dining philosophers who each take the left fork first: a deadlock.
  public static let diningPhilosophers5 = ClassicBug(
    name: "dining philosophers, 5 seats: deadlock when everyone reaches left first",
    buggy: { spawn in await dinner(seats: 5, orderedForks: false, spawn) },
    fixed: { spawn in await dinner(seats: 5, orderedForks: true, spawn) },
    randomBudget: 20, pctBudget: 200, exhaustiveLimit: 2_000, configuration: .deadlocking)
}
