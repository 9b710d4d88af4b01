import Dispatch
import Effects

/// `AsyncStream.effect` against `AsyncStream` with no scheduler: each stream yields one element and
/// finishes, and is read to the end. Timed in alternating rounds from a nonisolated task, so both
/// see the same machine; the best round of each counts.
func benchmarkStreams() async {
  let streams = 100_000
  let pairs = 9
  let (plainSeconds, effectSeconds) = await Task.detached {
    var plain = Double.infinity
    var effect = Double.infinity
    for _ in 0..<pairs {
      var sum = 0
      var start = DispatchTime.now().uptimeNanoseconds
      for index in 0..<streams {
        let numbers = AsyncStream.effect("numbers", of: Int.self) { continuation in
          continuation.yield(index)
          continuation.finish()
        }
        for await number in numbers { sum &+= number }
      }
      effect = min(effect, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
      start = DispatchTime.now().uptimeNanoseconds
      for index in 0..<streams {
        let numbers = AsyncStream(Int.self) { continuation in
          continuation.yield(index)
          continuation.finish()
        }
        for await number in numbers { sum &+= number }
      }
      plain = min(plain, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
      precondition(sum > 0)
    }
    return (plain, effect)
  }.value
  print("\nAsyncStream.effect vs AsyncStream, make + yield + read, no scheduler (\(streams) streams, best of \(pairs) alternating rounds):")
  print("  AsyncStream:        \(Int(Double(streams) / plainSeconds)) streams/s")
  print("  AsyncStream.effect: \(Int(Double(streams) / effectSeconds)) streams/s")
  print("  ratio (time of AsyncStream.effect / time of AsyncStream): \(format(effectSeconds / plainSeconds))  (target <= 1.05)")
}
