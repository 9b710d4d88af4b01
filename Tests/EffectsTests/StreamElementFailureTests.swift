import EffectScheduler
import Effects
import Testing

/// Yields `ticks` into a stream named `ticks`, finishes it, and returns what a consumer saw.
private func consume(_ ticks: [Int]) async -> [Int] {
  let stream = AsyncStream.effect("ticks", of: Int.self) { continuation in
    for tick in ticks { continuation.yield(tick) }
    continuation.finish()
  }
  var seen: [Int] = []
  for await tick in stream { seen.append(tick) }
  return seen
}

@Suite("withTestHandler: stream element failures")
struct StreamElementFailureTests {
  @Test("an element the script never took fails the test at withTestHandler, and ends its stream")
  func unexpectedElement() async throws {
    let seen = Recorder()
    let handlerLine = #line + 2
    let thrown = await thrownFailure {
      try await withTestHandler(streamHandling: .expect) {
        for tick in await consume([1, 2]) { seen.append("\(tick)") }
        seen.append("finished")
      } test: { effect in
        try await effect.expectElement(of: "ticks", as: Int.self).deliver()
      }
    }
    let failure = try #require(thrown)
    #expect(failure.problem == .unexpectedElement(stream: "ticks", element: "2"))
    #expect(failure.description.hasSuffix(#"the stream "ticks" yielded 2, which the test script did not expect"#))
    #expect(failure.line == handlerLine)
    #expect(seen.lines == ["1", "finished"])
  }

  @Test("an element yielded after the script ended fails the test, and a throwing stream fails with it")
  func elementAfterScriptEnded() async throws {
    let outcome = Recorder()
    let failure = try await #require(throws: EffectTestFailure.self) {
      try await withTestHandler(taskHandling: .suspend, streamHandling: .expect) {
        let (lines, continuation) = AsyncThrowingStream.makeEffectStream("lines", of: String.self)
        // Held until the script ends.
        Task.effect(name: "producer") { continuation.yield("late") }
        do {
          for try await line in lines { outcome.append(line) }
        } catch {
          outcome.append("failed: \(error)")
        }
      } test: { effect in
        _ = try await effect.expectTask("producer", action: .suspend)
      }
    }
    #expect(failure.problem == .unexpectedElement(stream: "lines", element: #""late""#))
    #expect(outcome.lines == ["failed: \(failure)"])
  }

  @Test("expecting an element of a stream that yields nothing fails at that line when the program ends")
  func streamYieldsNothing() async throws {
    var scriptLine = 0
    let thrown = await thrownFailure {
      try await withTestHandler(streamHandling: .expect) {
        _ = await consume([])
      } test: { effect in
        scriptLine = #line + 1
        _ = try await effect.expectElement(of: "ticks", as: Int.self)
      }
    }
    let failure = try #require(thrown)
    #expect(failure.problem == .programEnded(expected: #"an element of "ticks""#, error: nil))
    #expect(failure.line == scriptLine)
  }

  @Test("expecting an element while the consumer waits for a producer that never yields fails, without hanging")
  func consumerWaitsForGood() async throws {
    var configuration = SchedulerConfiguration()
    configuration.outsideWorldTimeout = .milliseconds(100)
    let failure = try await #require(throws: EffectTestFailure.self) {
      try await withTestHandler(streamHandling: .expect, configuration: configuration) {
        let (ticks, continuation) = AsyncStream.makeEffectStream("ticks", of: Int.self)
        _ = await ticks.first { _ in true }
        continuation.finish()
      } test: { effect in
        _ = try await effect.expectElement(of: "ticks", as: Int.self)
      }
    }
    guard case .programEnded(let expected, let error) = failure.problem else {
      Issue.record("expected the program to end, got \(failure)")
      return
    }
    #expect(expected == #"an element of "ticks""#)
    #expect(error?.contains(#"the next element yielded to "ticks""#) == true)
  }

  @Test("an element of another stream, or of another type, is a mismatch naming the element")
  func mismatches() async throws {
    let otherStream = try await #require(throws: EffectTestFailure.self) {
      try await withTestHandler(streamHandling: .expect) {
        _ = await consume([1])
      } test: { effect in
        _ = try await effect.expectElement(of: "tocks", as: Int.self)
      }
    }
    #expect(otherStream.problem == .mismatch(expected: #"an element of "tocks""#, performed: "ticks ← 1"))
    let otherType = try await #require(throws: EffectTestFailure.self) {
      try await withTestHandler(streamHandling: .expect) {
        _ = await consume([1])
      } test: { effect in
        _ = try await effect.expectElement(of: "ticks", as: String.self)
      }
    }
    #expect(otherType.problem == .mismatch(expected: #"an element of "ticks" of type String"#, performed: "ticks ← 1"))
  }

  @Test("an effect expected while only an element waits for the script is a mismatch naming the element")
  func effectExpectedInstead() async throws {
    let failure = try await #require(throws: EffectTestFailure.self) {
      try await withTestHandler(streamHandling: .expect) {
        for tick in await consume([7]) { Console.print("\(tick)") }
      } test: { effect in
        try await effect.expect(Console.print) { _ in }
      }
    }
    #expect(failure.problem == .mismatch(expected: "Console.print", performed: "ticks ← 7"))
  }

  @Test("expecting an effect while the program waits for a held element fails at once")
  func waitingForElement() async throws {
    let failure = try await #require(throws: EffectTestFailure.self) {
      try await withTestHandler(streamHandling: .expect) {
        for tick in await consume([7]) { Console.print("\(tick)") }
      } test: { effect in
        let seven = try await effect.expectElement(of: "ticks", as: Int.self)
        try await effect.expect(Console.print) { _ in }
        await seven.deliver()
      }
    }
    #expect(failure.problem == .waitingForElements(expected: "Console.print", elements: ["ticks ← 7"]))
  }

  @Test("failing an AsyncStream, which can only finish, fails the test at that line")
  func plainStreamCannotFail() async throws {
    var scriptLine = 0
    let thrown = await thrownFailure {
      try await withTestHandler(streamHandling: .expect) {
        _ = await consume([1])
      } test: { effect in
        let one = try await effect.expectElement(of: "ticks", as: Int.self)
        scriptLine = #line + 1
        try await one.finishStream(throwing: Offline())
      }
    }
    let failure = try #require(thrown)
    #expect(failure.problem == .streamCannotFail(stream: "ticks"))
    #expect(failure.line == scriptLine)
  }
}
