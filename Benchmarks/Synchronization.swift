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
  let mutex = Mutex(0)
  let effectMutex = EffectMutex(0)
  compare("Mutex.withLock", "EffectMutex.withLock", operations: operations, rounds: rounds) {
    for _ in 0..<operations { mutex.withLock { $0 &+= 1 } }
  } _: {
    for _ in 0..<operations { effectMutex.withLock { $0 &+= 1 } }
  }
  let lock = NSLock()
  let effectLock = EffectLock()
  compare("NSLock lock/unlock", "EffectLock lock/unlock", operations: operations, rounds: rounds) {
    for _ in 0..<operations {
      lock.lock()
      lock.unlock()
    }
  } _: {
    for _ in 0..<operations {
      effectLock.lock()
      effectLock.unlock()
    }
  }
  let atomic = Atomic(0)
  let effectAtomic = EffectAtomic(0)
  compare("Atomic.wrappingAdd", "EffectAtomic.wrappingAdd", operations: operations, rounds: rounds) {
    for _ in 0..<operations { atomic.wrappingAdd(1, ordering: .relaxed) }
  } _: {
    for _ in 0..<operations { effectAtomic.wrappingAdd(1, ordering: .relaxed) }
  }
  compare("Atomic.load", "EffectAtomic.load", operations: operations, rounds: rounds) {
    var sum = 0
    for _ in 0..<operations { sum &+= atomic.load(ordering: .relaxed) }
    precondition(sum != 1)
  } _: {
    var sum = 0
    for _ in 0..<operations { sum &+= effectAtomic.load(ordering: .relaxed) }
    precondition(sum != 1)
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
