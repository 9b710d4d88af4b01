import Effects
import Foundation
import Synchronization
import Testing

/// A lookup the program performs, answered by the script.
private let lookUp = AsyncEffect<Int, Int>("Numbers.lookUp") { $0 }

/// A nonisolated script runs on the program's driver thread, between the program's steps, so a
/// hand-off is a job switch. These check that the program still moves whenever the script waits
/// on something else, and that a program thread blocked in a synchronous effect runs the script.
@Suite("withTestHandler: a script on the program's thread")
struct ScriptOnProgramThreadTests {
  @Test("a nonisolated script answers on the thread that runs the program")
  func sameThread() async throws {
    let threads = ThreadLog()
    let answer = try await withTestHandler {
      await Task.effect {
        threads.note("program")
        return await lookUp(1)
      }.value
    } test: { effect in
      try await effect.expect(lookUp) { asked in
        threads.note("script")
        return asked + 1
      }
    }
    #expect(answer == 2)
    #expect(threads.names == ["program", "script"])
    #expect(threads.distinctThreads == 1, "the script ran on another thread than the program")
  }

  @Test("a script that polls the program with Task.yield, without an effect, lets it move, clock and all")
  func scriptPollsWithYield() async throws {
    let woke = Recorder()
    try await withTestHandler {
      try await Task.sleep(for: .seconds(1))
      woke.append("woke")
      _ = await lookUp(7)
    } test: { effect in
      var polls = 0
      while woke.lines.isEmpty, polls < 100_000 {
        polls += 1
        await Task.yield()
      }
      #expect(woke.lines == ["woke"], "the program never moved while the script polled")
      try await effect.expect(lookUp, return: 0)
    }
  }

  @Test("a program thread blocked in a synchronous effect runs a script that hops to an actor to answer")
  func blockedThreadRunsScriptHops() async throws {
    let ledger = Ledger()
    try await withTestHandler {
      echo()
    } test: { effect in
      try await effect.expect(Console.readLine) {
        await ledger.add("asked")
        return "hello"
      }
      try await effect.expect(Console.print) { line in await ledger.add(line) }
      try await effect.expect(Console.readLine, return: nil)
    }
    #expect(await ledger.lines == ["asked", "hello"])
  }

  @Test("a thread of the program's own, blocked in a synchronous effect while the program's thread waits for it, runs the script")
  func programThreadWaitsForAnotherThread() async throws {
    let line = try await withTestHandler {
      let read = Recorder()
      let done = DispatchSemaphore(value: 0)
      // A thread has no task-local values: the scope, with the script in it, goes along.
      let scope = EffectScope.current
      Thread {
        scope.perform { read.append(Console.readLine() ?? "nil") }
        done.signal()
      }.start()
      // The program's own thread blocks, in no effect: only the other thread can run the script.
      // Bounded, so that a script nobody runs fails the test instead of hanging it.
      _ = done.wait(timeout: .now() + .seconds(10))
      return read.lines
    } test: { effect in
      try await effect.expect(Console.readLine, return: "from the other thread")
    }
    #expect(line == ["from the other thread"])
  }
}

/// What a script keeps for itself, behind an actor of its own.
private actor Ledger {
  var lines: [String] = []

  func add(_ line: String) {
    lines.append(line)
  }
}

/// Which threads ran which named parts of a test.
private final class ThreadLog: Sendable {
  private let entries = Mutex<[(name: String, thread: UInt)]>([])

  func note(_ name: String) {
    #if canImport(Darwin)
      let thread = UInt(bitPattern: pthread_self())
    #else
      let thread = UInt(pthread_self())
    #endif
    entries.withLock { $0.append((name, thread)) }
  }

  var names: [String] { entries.withLock { $0.map(\.name) } }
  var distinctThreads: Int { entries.withLock { Set($0.map(\.thread)).count } }
}
