import Effects
import Foundation
import Testing

/// A lookup a task performs, answered by the script.
private let lookUp = AsyncEffect<Int, Int>("Numbers.lookUp") { $0 }

/// A hand-off between the program and its script usually takes no wake-up: each side spins
/// briefly for the other before it parks. These check that both ways, the quick and the parked,
/// deliver every answer to the right place.
@Suite("withTestHandler hand-offs")
struct HandOffTests {
  @Test("2,000 lines echoed in quick succession each come back in order")
  func manyQuickSynchronousEffects() async throws {
    let output = Recorder()
    let lines = (0..<2_000).map { "line \($0)" }
    try await withTestHandler {
      echo()
    } test: { effect in
      for line in lines {
        try await effect.expect(Console.readLine, return: line)
        try await effect.expect(Console.print) { output.append($0) }
      }
      try await effect.expect(Console.readLine, return: nil)
    }
    #expect(output.lines == lines)
  }

  @Test("500 tasks each get the answer to their own effect")
  func manyQuickAsynchronousEffects() async throws {
    let answers = try await withTestHandler {
      let tasks = (0..<500).map { index in Task.effect { await lookUp(index) } }
      var answers: [Int] = []
      for task in tasks { answers.append(await task.value) }
      return answers
    } test: { effect in
      for index in 0..<500 {
        try await effect.expect(lookUp) { asked in
          #expect(asked == index, "the effects reached the script out of order")
          return asked * 3
        }
      }
    }
    #expect(answers == (0..<500).map { $0 * 3 })
  }

  @Test("a script that takes 50 ms over each answer still wakes the program's blocked thread")
  func slowScriptSynchronous() async throws {
    let output = Recorder()
    try await withTestHandler {
      echo()
    } test: { effect in
      for line in ["one", "two"] {
        try await effect.expect(Console.readLine) {
          // Outside the scheduler, in real time: the program's thread has parked long before.
          try await Task.sleep(for: .milliseconds(50))
          return line
        }
        try await effect.expect(Console.print) { output.append($0) }
      }
      try await effect.expect(Console.readLine, return: nil)
    }
    #expect(output.lines == ["one", "two"])
  }

  @Test("a script that takes 50 ms over each answer still resumes the program's suspended tasks")
  func slowScriptAsynchronous() async throws {
    let answers = try await withTestHandler {
      let tasks = (0..<3).map { index in Task.effect { await lookUp(index) } }
      var answers: [Int] = []
      for task in tasks { answers.append(await task.value) }
      return answers
    } test: { effect in
      for _ in 0..<3 {
        try await effect.expect(lookUp) { asked in
          try await Task.sleep(for: .milliseconds(50))
          return asked + 10
        }
      }
    }
    #expect(answers == [10, 11, 12])
  }

  @Test("a program that takes 20 ms between two effects still wakes the script that waits for it")
  func slowProgram() async throws {
    let output = Recorder()
    try await withTestHandler {
      slowEcho()
    } test: { effect in
      for line in ["one", "two"] {
        try await effect.expect(Console.readLine, return: line)
        try await effect.expect(Console.print) { output.append($0) }
      }
      try await effect.expect(Console.readLine, return: nil)
    }
    #expect(output.lines == ["one", "two"])
  }
}

/// Echoes as `echo()` does, blocking its thread for 20 ms between reading a line and printing it:
/// far longer than the script spins before it suspends.
private func slowEcho() {
  while let line = Console.readLine() {
    Thread.sleep(forTimeInterval: 0.02)
    Console.print(line)
  }
}
