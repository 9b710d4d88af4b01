import Foundation
import Synchronization

/// Threads that keep cores busy while the benchmarks run, as other tests running in parallel or
/// another machine's work on the same host do: `BENCHMARK_BUSY=1` starts one, which spins until
/// the process ends. A search whose threads hand their place to each other waits longer for a
/// thread that shares its core with a busy one, so a ratio measured beside them shows how much
/// each kind of search depends on its threads getting a core at once.
enum BusyThreads {
  /// How many busy threads the environment asks for: `BENCHMARK_BUSY`, none unless set.
  static var requested: Int { max(Int(ProcessInfo.processInfo.environment["BENCHMARK_BUSY"] ?? "") ?? 0, 0) }

  /// Starts `count` threads that spin until the process ends, and says so.
  static func start(_ count: Int) {
    guard count > 0 else { return }
    for index in 0..<count {
      let thread = Thread {
        var turns = 0
        while true {
          turns &+= 1
          spins.store(turns, ordering: .relaxed)
        }
      }
      thread.name = "Benchmarks.busy.\(index)"
      thread.start()
    }
    print("(\(count) busy thread\(count == 1 ? "" : "s") spinning beside the benchmarks: BENCHMARK_BUSY)")
  }

  /// Written by the busy threads, so that their loop does work the compiler keeps.
  private static let spins = Atomic<Int>(0)
}
