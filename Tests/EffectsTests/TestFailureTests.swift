import EffectScheduler
import ExploreTesting
import Foundation
import Effects
import Testing

@Suite("withTestHandler: failures")
struct TestFailureTests {
  @Test("expecting one effect when the program performs another names both, with the arguments")
  func mismatch() async throws {
    var scriptLine = 0
    let failure = try await requireFailure(EffectTestFailure.self) {
      try await withTestHandler {
        echo()
      } test: { effect in
        try await effect.expect(Console.readLine, return: "Hello")
        scriptLine = #line + 1
        try await effect.expect(Console.readLine, return: "again")
      }
    }
    #expect(failure.problem == .mismatch(expected: "Console.readLine", performed: #"Console.print("Hello")"#))
    #expect(failure.description.hasSuffix(#"expected Console.readLine, but the program performed Console.print("Hello")"#))
    #expect(failure.fileID == #fileID)
    #expect(failure.filePath == #filePath)
    #expect(failure.line == scriptLine)
  }

  @Test("expecting an effect of the same name that returns another type, or can throw where the program's cannot, is a mismatch")
  func mismatchOfKind() async throws {
    // Named as `Network.ping` is, but returning a String, or throwing.
    let pingForText = AsyncEffect<String, String>("Network.ping") { _ in "" }
    let throwingPing = ThrowingAsyncEffect<String, Int>("Network.ping") { _ in 0 }
    let otherType = try await requireFailure(EffectTestFailure.self) {
      try await withTestHandler {
        _ = await Network.ping("a")
      } test: { effect in
        try await effect.expect(pingForText, return: "pong")
      }
    }
    #expect(otherType.problem == .mismatch(expected: "Network.ping", performed: #"Network.ping("a")"#))
    let throwing = try await requireFailure(EffectTestFailure.self) {
      try await withTestHandler {
        _ = await Network.ping("a")
      } test: { effect in
        try await effect.expect(throwingPing, return: 1)
      }
    }
    #expect(throwing.problem == .mismatch(expected: "Network.ping", performed: #"Network.ping("a")"#))
    let answered = try await withTestHandler {
      await Network.ping("a")
    } test: { effect in
      try await effect.expect(Network.ping, return: 1)
    }
    #expect(answered == 1)
  }

  @Test("a failure the script catches still fails the test")
  func caughtMismatch() async throws {
    let failure = try await requireFailure(EffectTestFailure.self) {
      try await withTestHandler {
        echo()
      } test: { effect in
        _ = try? await effect.expect(Console.print) { _ in }
        try await effect.expect(Console.readLine, return: nil)
      }
    }
    #expect(failure.problem == .mismatch(expected: "Console.print", performed: "Console.readLine()"))
  }

  @Test("a script still waiting after the program finished fails at that line")
  func scriptOutlivesProgram() async throws {
    var scriptLine = 0
    let failure = try await requireFailure(EffectTestFailure.self) {
      try await withTestHandler {
        echo()
      } test: { effect in
        try await effect.expect(Console.readLine, return: nil)
        scriptLine = #line + 1
        try await effect.expect(Console.print) { _ in }
      }
    }
    #expect(failure.problem == .programEnded(expected: "Console.print", error: nil))
    #expect(failure.description.contains("expected Console.print, but the program finished"))
    #expect(failure.line == scriptLine)
  }

  @Test("an effect the program still waits on when the script ends fails the test without hanging")
  func programOutlivesScript() async throws {
    let failure = try await requireFailure(EffectTestFailure.self) {
      try await withTestHandler {
        echo()
      } test: { effect in
        try await effect.expect(Console.readLine, return: "Hello")
      }
    }
    #expect(failure.problem == .unanswered(performed: #"Console.print("Hello")"#))
    #expect(failure.description.contains(#"the test script ended while the program waited on Console.print("Hello")"#))
  }

  @Test(
    "no thread outlives a withTestHandler whose script left a synchronous effect unanswered",
    .enabled(if: ProcessThreads.canCount, "counts threads through /proc"))
  func unansweredSynchronousEffectsLeakNoThread() async throws {
    let before = ProcessThreads.count()
    for round in 0..<200 {
      let failure = try await requireFailure(EffectTestFailure.self) {
        try await withTestHandler {
          echo()
          // An effect whose value has no empty form goes on to its own implementation.
          return Counter.next(round)
        } test: { effect in
          try await effect.expect(Console.readLine, return: "Hello")
        }
      }
      #expect(failure.problem == .unanswered(performed: #"Console.print("Hello")"#))
    }
    // Tests running alongside may start threads of their own meanwhile (each exploration drives
    // its runs on a thread of its own, and a paused job's on another), a few dozen (61 once, on a
    // loaded machine), for as long as they run: up to 20 s are given for them to end. A thread
    // leaked a round would add 200.
    var after = ProcessThreads.count()
    for _ in 0..<2_000 where after > before + 100 {
      try await Task.sleep(for: .milliseconds(10))
      after = ProcessThreads.count()
    }
    #expect(after <= before + 100, "\(before) threads before, \(after) after")
  }

  @Test("a throwing effect still unanswered when the script ends gets the failure thrown into it")
  func unansweredThrowingEffect() async throws {
    let caught = Recorder()
    let failure = try await requireFailure(EffectTestFailure.self) {
      try await withTestHandler {
        _ = await Network.ping("a")
        do {
          _ = try await Network.fetch("b")
        } catch {
          caught.append("\(error)")
        }
      } test: { effect in
        try await effect.expect(Network.ping, return: 1)
      }
    }
    #expect(failure.problem == .unanswered(performed: #"Network.fetch("b")"#))
    #expect(caught.lines.count == 1)
    #expect(caught.lines.first?.contains(#"the test script ended while the program waited on Network.fetch("b")"#) == true)
  }

  @Test("an effect performed after the script ended is reported, and a throwing one fails")
  func performedAfterScriptEnded() async throws {
    let caught = Recorder()
    let failure = try await requireFailure(EffectTestFailure.self) {
      try await withTestHandler {
        // The script has nothing to wait for, so it is over by the time the program wakes up.
        try await Task.sleep(for: .milliseconds(20))
        do {
          _ = try await Network.fetch("late")
        } catch {
          caught.append("\(error)")
        }
      } test: { _ in }
    }
    #expect(failure.problem == .performedAfterScriptEnded(performed: #"Network.fetch("late")"#))
    #expect(failure.description.contains(#"the program performed Network.fetch("late") after the test script ended"#))
    #expect(caught.lines.first?.contains("after the test script ended") == true)
  }

  @Test("a non-throwing effect performed after the script ended stops the test at once")
  func abandonedAfterScriptEnded() async throws {
    let failure = try await requireFailure(EffectTestFailure.self) {
      try await withTestHandler {
        try await Task.sleep(for: .milliseconds(20))
        _ = await Network.ping("late")
        Issue.record("the program went on without an answer")
      } test: { _ in }
    }
    #expect(failure.problem == .performedAfterScriptEnded(performed: #"Network.ping("late")"#))
  }

  @Test("a program that deadlocks ends the script's wait with the scheduler's report")
  func deadlock() async throws {
    let failure = try await requireFailure(EffectTestFailure.self) {
      try await withTestHandler(configuration: SchedulerConfiguration(outsideWorldTimeout: .milliseconds(100))) {
        let never = AsyncStream<Int>.makeStream()
        for await _ in never.stream {}
        _ = never.continuation
      } test: { effect in
        try await effect.expect(Console.readLine, return: nil)
      }
    }
    guard case .programEnded(let expected, let error) = failure.problem else {
      Issue.record("expected the program to end, got \(failure)")
      return
    }
    #expect(expected == "Console.readLine")
    #expect(error?.contains("deadlock") == true)
  }

  @Test("an error the program throws is rethrown")
  func programError() async throws {
    await #expect(throws: Offline.self) {
      try await withTestHandler {
        _ = try await Network.fetch("a")
      } test: { effect in
        try await effect.expect(Network.fetch) { _ in throw Offline() }
      }
    }
  }
}

/// The threads alive in this process. A thread blocked for good on an effect nobody answers is one
/// of the shared pool's, which otherwise grows only to a few threads a core.
private enum ProcessThreads {
  static let canCount = FileManager.default.fileExists(atPath: "/proc/self/task")

  static func count() -> Int {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).count
  }
}

private enum Counter {
  static let next = Effect<Int, Int>("Counter.next") { $0 + 1 }
}
