import Effects
import Testing

/// The reference's program whose behaviour depends on the scope it runs in.
private struct Program {
  func run() {
    Console.print("Hello")
  }
}

/// The same program with the handlers of the place it was made in baked in.
private struct ScopedProgram {
  let scope = EffectScope.current

  func run() {
    scope.perform { Console.print("Hello") }
  }
}

@Suite("Effect scopes")
struct EffectScopeTests {
  @Test("a program behaves as the handlers of the scope it runs in say")
  func callingScope() {
    let output = Recorder()
    with {
      EffectHandler(Console.print) { output.append($0) }
    } perform: {
      let program = Program()
      with {
        EffectHandler(Console.print) { Console.print($0.uppercased()) }
      } perform: {
        program.run()
      }
      program.run()
    }
    #expect(output.lines == ["HELLO", "Hello"])
  }

  @Test("a closure bakes its handlers in, and they stay innermost")
  func closureComposition() {
    let output = Recorder()
    with {
      EffectHandler(Console.print) { output.append($0) }
    } perform: {
      let program = Program()
      // This handler discharges the effect, so no handler outside it takes part.
      let run = {
        with {
          EffectHandler(Console.print) { output.append($0.uppercased()) }
        } perform: {
          program.run()
        }
      }
      run()
      with {
        EffectHandler(Console.print) { Console.print($0.lowercased()) }
      } perform: {
        run()
      }
    }
    #expect(output.lines == ["HELLO", "HELLO"])
  }

  @Test("a value that captures EffectScope.current keeps the handlers of where it was made")
  func capturedScope() {
    let output = Recorder()
    with {
      EffectHandler(Console.print) { output.append($0) }
    } perform: {
      let program = with {
        EffectHandler(Console.print) { Console.print($0.uppercased()) }
      } perform: {
        ScopedProgram()
      }
      program.run()
      with {
        EffectHandler(Console.print) { Console.print($0.lowercased()) }
      } perform: {
        program.run()
      }
    }
    #expect(output.lines == ["HELLO", "HELLO"])
  }

  @Test("a handler runs in the scope outside it")
  func handlerScope() {
    let seen = Recorder()
    with {
      EffectHandler(Console.readLine) { "outer" }
    } perform: {
      with {
        EffectHandler(Console.readLine) { "inner" }
        EffectHandler(Console.print) { _ in seen.append(Console.readLine() ?? "none") }
      } perform: {
        Console.print("x")
      }
    }
    // The print handler is in the same block as the inner readLine handler, so it sees the
    // handler listed after itself and the blocks outside, not the one listed before.
    #expect(seen.lines == ["outer"])
  }
}
