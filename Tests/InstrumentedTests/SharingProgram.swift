import Synchronization

/// A small random program of tasks that share state every way instrumented code can: actors, a
/// `Mutex`, atomics and a class guarded by a lock, with and without a check split from its act.
/// Free of data races, so that every run ends with an outcome: what it reports at its end.
struct SharingProgram: Sendable, CustomStringConvertible {
  enum Operation: Sendable, CustomStringConvertible, CaseIterable {
    /// Appends the task's tag to the log of actor 0 or 1.
    case append0, append1
    /// Adds one to a count in one critical section, or reads it in one and writes it in another.
    case lockedIncrement, splitIncrement
    /// Adds one to an atomic count.
    case atomicAdd
    /// Claims a flag by a load and a store, or by one compare-exchange; the winners are logged.
    case checkThenClaim, compareExchangeClaim
    /// Appends the task's tag to a list in a class, inside a `Mutex`.
    case guardedAppend
    case yield

    var description: String {
      switch self {
      case .append0: "append0"
      case .append1: "append1"
      case .lockedIncrement: "locked+1"
      case .splitIncrement: "split+1"
      case .atomicAdd: "atomic+1"
      case .checkThenClaim: "checkThenClaim"
      case .compareExchangeClaim: "casClaim"
      case .guardedAppend: "guardedAppend"
      case .yield: "yield"
      }
    }
  }

  let seed: UInt64
  let tasks: [[Operation]]

  var description: String { "program \(seed): \(tasks)" }

  /// The program of `seed`: two or three tasks of one to three operations each.
  init(seed: UInt64) {
    self.seed = seed
    var state = seed
    func next(_ bound: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var x = state
      x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
      x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((x ^ (x >> 31)) % UInt64(bound))
    }
    let taskCount = 2 + next(3) / 2
    tasks = (0..<taskCount).map { _ in
      (0..<(1 + next(taskCount == 3 ? 2 : 3))).map { _ in Operation.allCases[next(Operation.allCases.count)] }
    }
  }

  /// Runs the program; returns its outcome.
  func run() async -> String {
    let shared = SharedState()
    await withTaskGroup(of: Void.self) { group in
      for (tag, operations) in tasks.enumerated() {
        group.addTask {
          for operation in operations { await shared.perform(operation, tag: tag) }
        }
      }
    }
    return await shared.outcome()
  }
}

private actor Log {
  var entries: [Int] = []
  func add(_ entry: Int) { entries.append(entry) }
}

/// What a program's tasks share.
private final class SharedState: @unchecked Sendable {
  let logs = [Log(), Log()]
  let count = Mutex(0)
  let atomicCount = Atomic<Int>(0)
  let flag = Atomic<Bool>(false)
  let winners = Mutex<[Int]>([])
  let listLock = Mutex(())
  var list: [Int] = []

  func perform(_ operation: SharingProgram.Operation, tag: Int) async {
    switch operation {
    case .append0: await logs[0].add(tag)
    case .append1: await logs[1].add(tag)
    case .lockedIncrement: count.withLock { $0 += 1 }
    case .splitIncrement:
      let seen = count.withLock { $0 }
      count.withLock { $0 = seen + 1 }
    case .atomicAdd: atomicCount.add(1, ordering: .relaxed)
    case .checkThenClaim:
      guard !flag.load(ordering: .acquiring) else { return }
      flag.store(true, ordering: .releasing)
      winners.withLock { $0.append(tag) }
    case .compareExchangeClaim:
      guard flag.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
      winners.withLock { $0.append(tag) }
    case .guardedAppend: listLock.withLock { _ in list.append(tag) }
    case .yield: await Task.yield()
    }
  }

  func outcome() async -> String {
    let logs = [await self.logs[0].entries, await self.logs[1].entries]
    let list = listLock.withLock { _ in self.list }
    return "\(logs) count \(count.withLock { $0 }) atomic \(atomicCount.load(ordering: .relaxed)) winners \(winners.withLock { $0 }) list \(list)"
  }
}
