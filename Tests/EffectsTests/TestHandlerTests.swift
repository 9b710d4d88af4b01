import Effects
import Testing

@Suite("withTestHandler: expect and yield")
struct TestHandlerTests {
  @Test("the script answers each effect of echo in turn")
  func echoStepByStep() async throws {
    try await withTestHandler {
      echo()
    } test: { effect in
      try await effect.expect(Console.readLine) { "Hello" }
      try await effect.expect(Console.print) { line in #expect(line == "Hello") }
      try await effect.expect(Console.readLine) { "Good Bye" }
      try await effect.expect(Console.print) { line in #expect(line == "Good Bye") }
      try await effect.expect(Console.readLine) { nil }
    }
  }

  @Test("return: answers an effect with a fixed value")
  func returnOnly() async throws {
    try await withTestHandler {
      echo()
    } test: { effect in
      try await effect.expect(Console.readLine, return: "Hello")
      try await effect.expect(Console.print) { #expect($0 == "Hello") }
      try await effect.expect(Console.readLine, return: nil)
    }
  }

  @Test("withTestHandler returns the program's value")
  func programValue() async throws {
    let line = try await withTestHandler {
      Console.readLine()
    } test: { effect in
      try await effect.expect(Console.readLine, return: "typed")
    }
    #expect(line == "typed")
  }

  @Test("an inner handler that discharges an effect hides it from the script")
  func innerFilter() async throws {
    try await withTestHandler {
      with {
        EffectHandler(Console.print) { _ in }
      } perform: {
        echo()
      }
    } test: { effect in
      try await effect.expect(Console.readLine, return: "Hello")
      try await effect.expect(Console.readLine, return: "Good Bye")
      try await effect.expect(Console.readLine, return: nil)
    }
  }

  @Test("opt in: an inner handler passes on only the effects the script should see")
  func optIn() async throws {
    try await withTestHandler {
      with {
        EffectHandler(Console.print) { line in
          if line == "Hello" { Console.print(line) }
        }
      } perform: {
        echo()
      }
    } test: { effect in
      try await effect.expect(Console.readLine, return: "Hello")
      try await effect.expect(Console.print) { #expect($0 == "Hello") }
      try await effect.expect(Console.readLine, return: "Hi")
      try await effect.expect(Console.readLine, return: "Good Bye")
      try await effect.expect(Console.readLine, return: nil)
    }
  }

  @Test("opt out: the script yields effects to a handler outside withTestHandler")
  func optOut() async throws {
    let stub = Recorder()
    try await with {
      EffectHandler(Console.print) { stub.append($0) }
    } perform: {
      try await withTestHandler {
        echo()
      } test: { effect in
        try await effect.expect(Console.readLine, return: "Hello")
        try await effect.expect(Console.print) { #expect($0 == "Hello") }
        try await effect.expect(Console.readLine, return: "Hi")
        try await effect.yield()
        try await effect.expect(Console.readLine, return: "Good Bye")
        try await effect.yield()
        try await effect.expect(Console.readLine, return: nil)
      }
    }
    #expect(stub.lines == ["Hi", "Good Bye"])
  }

  @Test("with no handler outside, a yielded effect runs its default implementation")
  func yieldToDefault() async throws {
    let line = try await withTestHandler {
      Console.readLine()
    } test: { effect in
      try await effect.yield()
    }
    #expect(line == nil)
  }

  @Test("async and throwing effects are answered, and errors are thrown into the program")
  func asyncEffects() async throws {
    let outcome = try await withTestHandler {
      let first = await Network.ping("a")
      do {
        return (first, try await Network.fetch("b"))
      } catch {
        return (first, "failed: \(error)")
      }
    } test: { effect in
      try await effect.expect(Network.ping) { host in
        #expect(host == "a")
        return 7
      }
      try await effect.expect(Network.fetch) { _ in throw Offline() }
    }
    #expect(outcome.0 == 7)
    #expect(outcome.1 == "failed: Offline()")
  }

  @Test("an error the script throws for a non-throwing effect fails the test, not the program")
  func scriptError() async throws {
    await #expect(throws: Offline.self) {
      try await withTestHandler {
        echo()
      } test: { effect in
        try await effect.expect(Console.readLine) { throw Offline() }
      }
    }
  }
}

enum Network {
  static let ping = AsyncEffect<String, Int>("Network.ping") { _ in 0 }
  static let fetch = ThrowingAsyncEffect<String, String>("Network.fetch") { _ in "" }
}

struct Offline: Error {}
