import Effects

/// Two increments of an actor's counter, each reading the value, suspending, then writing.
private actor Counter {
  private(set) var value = 0

  func incrementAcrossSuspension() async {
    let read = value
    await Task.yield()
    value = read + 1
  }

  func increment() async {
    await Task.yield()
    value += 1
  }
}

/// Two increments from two tasks made by `spawn`; `increment` is how each one updates the counter.
private func twoIncrements(_ spawn: Spawn, _ increment: @escaping @Sendable (Counter) async -> Void) async throws {
  let counter = Counter()
  let first = spawn(name: "first") { await increment(counter) }
  let second = spawn(name: "second") { await increment(counter) }
  _ = await (first.value, second.value)
  let value = await counter.value
  try check(value == 2, "an increment was lost: the counter is \(value)")
}

extension ClassicBug {
  /// Two read-modify-write increments across an await: one update is lost.
  public static let lostUpdate = ClassicBug(
    name: "lost update across await in an actor",
    buggy: { spawn in try await twoIncrements(spawn) { await $0.incrementAcrossSuspension() } },
    fixed: { spawn in try await twoIncrements(spawn) { await $0.increment() } },
    randomBudget: 20, pctBudget: 20)
}
