import EffectScheduler
import Effects
import Testing

/// The reference's echo program, reading from a stream it makes itself: each line it reads is
/// written back, then `finished`.
private func echo(_ lines: AsyncThrowingStream<String, any Error>) async throws {
  for try await line in lines { Console.writeLine(line) }
  Console.writeLine("finished")
}

/// Three ticks, then the end of the stream.
private func threeTicks() -> AsyncStream<Int> {
  AsyncStream.effect("ticks", of: Int.self) { continuation in
    for tick in 1...3 { continuation.yield(tick) }
    continuation.finish()
  }
}

private func collect(_ ticks: AsyncStream<Int>) async -> [Int] {
  var seen: [Int] = []
  for await tick in ticks { seen.append(tick) }
  return seen
}

/// Reads the first of two ticks of a stream it makes, and drops the stream; the producer's
/// `onTermination` tells `terminated` how it saw the stream end.
private func firstTick(reportingTerminationTo terminated: AsyncStream<String>.Continuation) async -> Int? {
  let (ticks, continuation) = AsyncStream.makeEffectStream("ticks", of: Int.self)
  continuation.onTermination = { terminated.yield("\($0)") }
  continuation.yield(1)
  continuation.yield(2)
  return await ticks.first { _ in true }
}

/// A view model that shows the latest tick of a stream.
@MainActor
private final class TickerModel {
  var label = "waiting"

  func show(_ ticks: AsyncStream<Int>) async {
    for await tick in ticks { label = "tick \(tick)" }
    label = "stopped"
  }
}

@Suite("AsyncStream.effect")
struct AsyncStreamEffectTests {
  @Test("with no scheduler it is a plain stream: the buffering policy answers the producer's yield")
  func production() async {
    #expect(DeterministicScheduler.current == nil)
    #expect(await collect(threeTicks()) == [1, 2, 3])
    let (ticks, continuation) = AsyncStream.makeEffectStream("ticks", of: Int.self, bufferingPolicy: .bufferingNewest(1))
    continuation.yield(1)
    guard case .dropped(1) = continuation.yield(2) else {
      Issue.record("the continuation is not the plain stream's")
      return
    }
    continuation.finish()
    #expect(await collect(ticks) == [2])
  }

  @Test("under a scheduler with no script taking its elements it is the plain stream: no task of its own, the policy answers the yield")
  func scheduler() async throws {
    let execution = try await DeterministicScheduler.run { () -> ([Int], [Int]) in
      let (ticks, continuation) = AsyncStream.makeEffectStream("ticks", of: Int.self, bufferingPolicy: .bufferingNewest(1))
      continuation.yield(1)
      guard case .dropped(1) = continuation.yield(2) else { return ([], []) }
      continuation.finish()
      return (await collect(threeTicks()), await collect(ticks))
    }
    #expect(execution.value.0 == [1, 2, 3])
    #expect(execution.value.1 == [2])
    #expect(execution.trace.tasks.count == 1)
    #expect(execution.unfinishedTasks.isEmpty)
  }

  @Test("a consumer that stops reading ends the producer's stream, and its delivery task")
  func consumerStops() async throws {
    let execution = try await DeterministicScheduler.run { () -> (Int?, String?) in
      let termination = AsyncStream.makeStream(of: String.self)
      let first = await firstTick(reportingTerminationTo: termination.continuation)
      return (first, await termination.stream.first { _ in true })
    }
    #expect(execution.value.0 == 1)
    #expect(execution.value.1 == "cancelled")
    #expect(execution.unfinishedTasks.isEmpty)
  }

  @Test("a consumer waiting for a producer that never yields is a deadlock naming the stream it waits on")
  func silentProducer() async throws {
    var configuration = SchedulerConfiguration()
    configuration.outsideWorldTimeout = .milliseconds(100)
    let error = try await #require(throws: SchedulerError.self) {
      try await DeterministicScheduler.run(configuration: configuration) {
        let (ticks, continuation) = AsyncStream.makeEffectStream("ticks", of: Int.self)
        _ = await ticks.first { _ in true }
        continuation.finish()
      }
    }
    guard case .deadlock(let blocked) = error.reason else {
      Issue.record("expected a deadlock, got \(error)")
      return
    }
    #expect(blocked.contains { $0.task.id == TaskID(0) && $0.waitingOn?.contains("AsyncStream") == true }, "\(blocked)")
  }

  @Test("the error a throwing stream finishes with reaches the consumer after the elements before it")
  func throwingStream() async throws {
    let execution = try await DeterministicScheduler.run { () -> [String] in
      var seen: [String] = []
      let lines = AsyncThrowingStream.effect("lines", of: String.self) { continuation in
        continuation.yield("Hello")
        continuation.finish(throwing: Offline())
      }
      do {
        for try await line in lines { seen.append(line) }
      } catch {
        seen.append("\(error)")
      }
      return seen
    }
    #expect(execution.value == ["Hello", "Offline()"])
  }

  @Test("under a script, streams are delivered automatically by default")
  func automatic() async throws {
    try await withTestHandler {
      try await echo(AsyncThrowingStream.effect("lines") { continuation in
        continuation.yield("Hello")
        continuation.yield("Good Bye")
        continuation.finish()
      })
    } test: { effect in
      try await effect.expect(Console.writeLine) { #expect($0 == "Hello") }
      try await effect.expect(Console.writeLine) { #expect($0 == "Good Bye") }
      try await effect.expect(Console.writeLine) { #expect($0 == "finished") }
    }
  }

  @Test("expected, each element goes to the script, which checks and delivers it; the producer's end follows")
  func finishing() async throws {
    try await withTestHandler(streamHandling: .expect) {
      let (lines, continuation) = AsyncThrowingStream.makeEffectStream("lines", of: String.self)
      Task.effect(name: "reader") {
        continuation.yield("Hello")
        continuation.yield("Good Bye")
        continuation.finish()
      }
      try await echo(lines)
    } test: { effect in
      let hello = try await effect.expectElement(of: "lines", as: String.self)
      #expect(hello.value == "Hello")
      #expect(hello.stream == "lines")
      await hello.deliver()
      try await effect.expect(Console.writeLine) { #expect($0 == "Hello") }
      let goodBye = try await effect.expectElement(of: "lines", as: String.self)
      #expect(goodBye.value == "Good Bye")
      await goodBye.deliver()
      try await effect.expect(Console.writeLine) { #expect($0 == "Good Bye") }
      try await effect.expect(Console.writeLine) { #expect($0 == "finished") }
    }
  }

  @Test("expected, the script can fail the stream in place of an element")
  func throwing() async throws {
    await #expect(throws: Offline.self) {
      try await withTestHandler(streamHandling: .expect) {
        try await echo(AsyncThrowingStream.effect("lines") { continuation in
          continuation.yield("Hello")
          continuation.yield("Good Bye")
        })
        Issue.record("the stream should have failed")
      } test: { effect in
        try await effect.expectElement(of: "lines", as: String.self).deliver()
        try await effect.expect(Console.writeLine) { #expect($0 == "Hello") }
        try await effect.expectElement(of: "lines", as: String.self).finishStream(throwing: Offline())
      }
    }
  }

  @Test("expected, held elements reach the consumer in the order the script delivers them")
  func holdAndReorder() async throws {
    let seen = try await withTestHandler(streamHandling: .expect) {
      await collect(threeTicks())
    } test: { effect in
      let one = try await effect.expectElement(of: "ticks", as: Int.self)
      let two = try await effect.expectElement(of: "ticks", as: Int.self)
      let three = try await effect.expectElement(of: "ticks", as: Int.self)
      #expect([one.value, two.value, three.value] == [1, 2, 3])
      await three.deliver()
      await one.deliver()
      await two.deliver()
    }
    #expect(seen == [3, 1, 2])
  }

  @Test("expected, finishing the stream in place of an element drops it and the ones after it")
  func finishInPlace() async throws {
    let seen = try await withTestHandler(streamHandling: .expect) {
      await collect(threeTicks())
    } test: { effect in
      try await effect.expectElement(of: "ticks", as: Int.self).deliver()
      try await effect.expectElement(of: "ticks", as: Int.self).finishStream()
    }
    #expect(seen == [1])
  }

  @Test("expected, yield delivers the element, and an element still held when the script ends is delivered then")
  func yieldAndHeldAtEnd() async throws {
    let seen = try await withTestHandler(streamHandling: .expect) {
      await collect(threeTicks())
    } test: { effect in
      try await effect.yield()
      _ = try await effect.expectElement(of: "ticks", as: Int.self)
      try await effect.expectElement(of: "ticks", as: Int.self).deliver()
    }
    #expect(seen == [1, 3, 2])
  }

  @MainActor
  @Test("the script checks a main-actor model between the deliveries of a stream it consumes")
  func mainActorModel() async throws {
    let model = TickerModel()
    try await withTestHandler(streamHandling: .expect) {
      let (ticks, continuation) = AsyncStream.makeEffectStream("ticks", of: Int.self)
      Task.effect(name: "clock") {
        continuation.yield(1)
        continuation.yield(2)
        continuation.finish()
      }
      await model.show(ticks)
    } test: { effect in
      let one = try await effect.expectElement(of: "ticks", as: Int.self)
      let two = try await effect.expectElement(of: "ticks", as: Int.self)
      #expect(model.label == "waiting")
      await one.deliver()
      #expect(model.label == "tick 1")
      await two.deliver()
      #expect(model.label == "stopped")
    }
  }
}
