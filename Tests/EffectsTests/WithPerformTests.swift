import Effects
import Testing

@Suite("with { handlers } perform: { program }")
struct WithPerformTests {
  @Test("a handler changes what an effect does without changing the program")
  func uppercasing() {
    let printed = Recorder()
    with {
      EffectHandler(Console.readLine) { nil }
    } perform: {
      with {
        EffectHandler(Console.print) { printed.append($0.uppercased()) }
      } perform: {
        Console.print("Hello")
        Console.print("Good Bye")
        echo()
      }
    }
    #expect(printed.lines == ["HELLO", "GOOD BYE"])
  }

  @Test("a handler can be spelled from its effect")
  func handlerFromEffect() {
    let printed = Recorder()
    let fetched = with {
      Console.print.handler { printed.append("> " + $0) }
      Console.readLine.handler { "typed" }
    } perform: {
      Console.print(Console.readLine() ?? "nothing")
      return Console.readLine()
    }
    #expect(printed.lines == ["> typed"])
    #expect(fetched == "typed")
  }

  @Test("a handler that performs its effect passes it to the next handler out")
  func composition() {
    let input = Lines(["Hello", "Good Bye"])
    let log = Recorder()
    let output = Recorder()
    // main(): logs, then passes on to the outermost handler, which stands in for the terminal.
    with {
      EffectHandler(Console.readLine) { input.next() }
      EffectHandler(Console.print) { output.append($0) }
    } perform: {
      with {
        EffectHandler(Console.print) { line in
          log.append(line)
          Console.print(line)
        }
      } perform: {
        // module(): uppercases, then passes on to main's handler.
        with {
          EffectHandler(Console.print) { Console.print($0.uppercased()) }
        } perform: {
          echo()
        }
      }
    }
    #expect(log.lines == ["HELLO", "GOOD BYE"])
    #expect(output.lines == ["HELLO", "GOOD BYE"])
  }

  @Test("handlers are chosen with if and else", arguments: [true, false])
  func conditionalHandlers(logging: Bool) {
    let input = Lines(["Hello"])
    let log = Recorder()
    let output = Recorder()
    with {
      EffectHandler(Console.print) { output.append($0) }
    } perform: {
      with {
        if logging {
          EffectHandler(Console.print) { line in
            log.append(line)
            Console.print(line)
          }
        }
        if logging {
          EffectHandler(Console.readLine) { input.next()?.uppercased() }
        } else {
          EffectHandler(Console.readLine) { input.next() }
        }
      } perform: {
        echo()
      }
    }
    #expect(log.lines == (logging ? ["HELLO"] : []))
    #expect(output.lines == (logging ? ["HELLO"] : ["Hello"]))
  }

  @Test("the first handler listed for an effect is tried first, and passes to the next one")
  func orderInOneBlock() {
    let output = Recorder()
    with {
      EffectHandler(Console.print) { Console.print("<\($0)>") }
      EffectHandler(Console.print) { output.append($0) }
    } perform: {
      Console.print("x")
    }
    #expect(output.lines == ["<x>"])
  }

  @Test("with returns what perform returns and rethrows what it throws")
  func valueAndErrors() async throws {
    let value = with { EffectHandler(Console.readLine) { "line" } } perform: { Console.readLine() }
    #expect(value == "line")
    #expect(throws: Stop.self) {
      try with { EffectHandler(Console.readLine) { "line" } } perform: { throw Stop() }
    }
    let asynchronous = await with { EffectHandler(Console.readLine) { "async" } } perform: {
      await Task.yield()
      return Console.readLine()
    }
    #expect(asynchronous == "async")
  }

  @Test("handlers reach child tasks and Task.effect tasks")
  func taskTree() async {
    let output = Recorder()
    await with {
      EffectHandler(Console.print) { output.append($0) }
    } perform: {
      async let child: Void = Console.print("child")
      await child
      await Task.effect { Console.print("task") }.value
    }
    #expect(output.lines == ["child", "task"])
  }
}

private struct Stop: Error {}
