import Dispatch
import Effects
import Explore
import Foundation
import Synchronization

/// The drop-in locks and atomics against the real ones, outside any scheduler, and the schedules
/// a second an exhaustive search runs of programs with and without them.
func benchmarkSynchronization() async {
  let operations = 2_000_000
  let rounds = 9
  print("Drop-in locks and atomics against the real ones, no scheduler (\(operations) operations on one thread, best of \(rounds) alternating rounds):")
  // Each loop is a function of its own, so that where the compiler lays out one loop does not
  // move another: a loop of a few instructions runs up to a quarter faster or slower with its
  // alignment alone.
  let mutex = Mutex(0)
  let effectMutex = EffectMutex(0)
  compare("Mutex.withLock", "EffectMutex.withLock", operations: operations, rounds: rounds) {
    mutexLoop(mutex, operations)
  } _: {
    effectMutexLoop(effectMutex, operations)
  }
  let lock = NSLock()
  let effectLock = EffectLock()
  compare("NSLock lock/unlock", "EffectLock lock/unlock", operations: operations, rounds: rounds) {
    lockLoop(lock, operations)
  } _: {
    effectLockLoop(effectLock, operations)
  }
  let atomic = Atomic(0)
  let effectAtomic = EffectAtomic(0)
  compare("Atomic.wrappingAdd", "EffectAtomic.wrappingAdd", operations: operations, rounds: rounds) {
    addLoop(atomic, operations)
  } _: {
    effectAddLoop(effectAtomic, operations)
  }
  compare("Atomic.load", "EffectAtomic.load", operations: operations, rounds: rounds) {
    precondition(loadLoop(atomic, operations) != 1)
  } _: {
    precondition(effectLoadLoop(effectAtomic, operations) != 1)
  }

  print("\nExhaustive search of three tasks that each update a counter twice, at most 20,000 schedules (schedules a second):")
  var configuration = ExploreConfiguration(progressInterval: nil)
  configuration.checksDeterminism = false
  let onActor = await rate(configuration) {
    let counter = BenchmarkCounter()
    let tasks = (0..<3).map { _ in Task.effect { for _ in 0..<2 { await counter.increment() } } }
    for task in tasks { await task.value }
  }
  let onMutex = await rate(configuration) {
    let counter = EffectMutex(0)
    let tasks = (0..<3).map { _ in Task.effect { for _ in 0..<2 { counter.withLock { $0 += 1 } } } }
    for task in tasks { await task.value }
  }
  let onAtomic = await rate(configuration) {
    let counter = EffectAtomic(0)
    let tasks = (0..<3).map { _ in Task.effect { for _ in 0..<2 { counter.wrappingAdd(1, ordering: .relaxed) } } }
    for task in tasks { await task.value }
  }
  print("  on an actor (no controlled primitive): \(onActor.schedules) schedules, \(Int(onActor.perSecond))/s")
  print("  behind an EffectMutex:                 \(onMutex.schedules) schedules, \(Int(onMutex.perSecond))/s")
  print("  on an EffectAtomic:                    \(onAtomic.schedules) schedules, \(Int(onAtomic.perSecond))/s")
}

@inline(never) private func mutexLoop(_ mutex: borrowing Mutex<Int>, _ operations: Int) {
  for _ in 0..<operations { mutex.withLock { $0 &+= 1 } }
}

@inline(never) private func effectMutexLoop(_ mutex: EffectMutex<Int>, _ operations: Int) {
  for _ in 0..<operations { mutex.withLock { $0 &+= 1 } }
}

@inline(never) private func lockLoop(_ lock: NSLock, _ operations: Int) {
  for _ in 0..<operations {
    lock.lock()
    lock.unlock()
  }
}

@inline(never) private func effectLockLoop(_ lock: EffectLock, _ operations: Int) {
  for _ in 0..<operations {
    lock.lock()
    lock.unlock()
  }
}

@inline(never) private func addLoop(_ atomic: borrowing Atomic<Int>, _ operations: Int) {
  for _ in 0..<operations { atomic.wrappingAdd(1, ordering: .relaxed) }
}

@inline(never) private func effectAddLoop(_ atomic: EffectAtomic<Int>, _ operations: Int) {
  for _ in 0..<operations { atomic.wrappingAdd(1, ordering: .relaxed) }
}

@inline(never) private func loadLoop(_ atomic: borrowing Atomic<Int>, _ operations: Int) -> Int {
  var sum = 0
  for _ in 0..<operations { sum &+= atomic.load(ordering: .relaxed) }
  return sum
}

@inline(never) private func effectLoadLoop(_ atomic: EffectAtomic<Int>, _ operations: Int) -> Int {
  var sum = 0
  for _ in 0..<operations { sum &+= atomic.load(ordering: .relaxed) }
  return sum
}

private actor BenchmarkCounter {
  var value = 0
  func increment() { value += 1 }
}

/// Times `real` and `dropIn` in alternating rounds and prints the best of each and their ratio.
private func compare(_ realName: String, _ dropInName: String, operations: Int, rounds: Int, _ real: () -> Void, _ dropIn: () -> Void) {
  var best = (real: Double.infinity, dropIn: Double.infinity)
  for _ in 0..<rounds {
    best.real = min(best.real, seconds(real))
    best.dropIn = min(best.dropIn, seconds(dropIn))
  }
  let perOperation = { (time: Double) in format(time / Double(operations) * 1e9) + " ns" }
  print("  \(realName): \(perOperation(best.real)); \(dropInName): \(perOperation(best.dropIn)); ratio \(format(best.dropIn / best.real))  (target <= 1.1)")
}

private func seconds(_ body: () -> Void) -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  body()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// How many schedules an exhaustive search of `program` runs, and how many a second.
private func rate(_ configuration: ExploreConfiguration, _ program: @escaping @Sendable () async throws -> Void) async -> (schedules: Int, perSecond: Double) {
  let start = DispatchTime.now().uptimeNanoseconds
  guard let summary = try? await explore(.exhaustive(maxSchedules: 20_000), configuration: configuration, program) else { return (0, 0) }
  let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  return (summary.schedules, Double(summary.schedules) / elapsed)
}
