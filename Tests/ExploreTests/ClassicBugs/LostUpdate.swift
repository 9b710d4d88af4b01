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

extension ClassicBug {
  static let lostUpdate = ClassicBug(
    name: "lost update across await in an actor",
    buggy: {
      let counter = Counter()
      let first = Task.effect(name: "first") { await counter.incrementAcrossSuspension() }
      let second = Task.effect(name: "second") { await counter.incrementAcrossSuspension() }
      _ = await (first.value, second.value)
      let value = await counter.value
      try check(value == 2, "an increment was lost: the counter is \(value)")
    },
    fixed: {
      let counter = Counter()
      let first = Task.effect(name: "first") { await counter.increment() }
      let second = Task.effect(name: "second") { await counter.increment() }
      _ = await (first.value, second.value)
      let value = await counter.value
      try check(value == 2, "an increment was lost: the counter is \(value)")
    },
    randomBudget: 20, pctBudget: 20)
}
