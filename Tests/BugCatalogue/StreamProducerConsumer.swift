import Effects

/// A producer yields three readings into a stream that keeps only the newest element; whenever it
/// runs ahead of the consumer, readings are dropped. `spawn` makes both tasks.
private func sumReadings(_ spawn: Spawn, bufferingPolicy: AsyncStream<Int>.Continuation.BufferingPolicy) async throws {
  let (readings, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: bufferingPolicy)
  let producer = spawn(name: "producer") {
    for reading in 1...3 {
      continuation.yield(reading)
      await Task.yield()
    }
    continuation.finish()
  }
  let consumer = spawn(name: "consumer") {
    var sum = 0
    for await reading in readings { sum += reading }
    return sum
  }
  await producer.value
  let sum = await consumer.value
  try check(sum == 6, "the consumer summed \(sum): readings were dropped")
}

extension ClassicBug {
  /// A stream consumer whose buffering policy drops readings.
  public static let streamProducerConsumer = ClassicBug(
    name: "producer/consumer race over an AsyncStream",
    buggy: { spawn in try await sumReadings(spawn, bufferingPolicy: .bufferingNewest(1)) },
    fixed: { spawn in try await sumReadings(spawn, bufferingPolicy: .unbounded) },
    randomBudget: 20, pctBudget: 20)
}
