import Dispatch
import Effects
import Explore

/// What one `explore` call costs beyond its runs: an exhaustive and a reduced search of a program
/// that spawns one task and awaits it, one schedule each, called again and again, as a test suite
/// of many small explorations does. Prints the median and the 90th percentile of the calls' times
/// in each of three rounds of `calls` calls, since a call waits for two threads to wake, whose
/// latency varies from call to call.
func benchmarkCallCost(calls: Int = 5_000) async throws {
  var configuration = ExploreConfiguration(progressInterval: nil)
  configuration.checksDeterminism = false
  print("\nOne explore call of a one-schedule program (spawn one task, await it), median and 90th percentile of \(calls) calls, three rounds:")
  for strategy in [ExplorationStrategy.exhaustive(maxSchedules: 10), .reduced(maxSchedules: 10)] {
    var rounds: [String] = []
    for _ in 0..<3 {
      var times: [Double] = []
      times.reserveCapacity(calls)
      for _ in 0..<calls {
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try await explore(strategy, configuration: configuration) { await Task.effect {}.value }
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3)
      }
      times.sort()
      rounds.append("\(format(times[calls / 2])) µs (90%: \(format(times[calls * 9 / 10])))")
    }
    print("  \(strategy): \(rounds.joined(separator: ", "))")
  }
}
