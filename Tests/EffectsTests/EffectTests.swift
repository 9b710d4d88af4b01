import Effects
import Testing

private enum Arithmetic {
  static let add = Effect<Int, Int, Int>("Arithmetic.add") { $0 + $1 }
  static let double = AsyncEffect<Int, Int>("Arithmetic.double") { $0 * 2 }
  static let divide = ThrowingAsyncEffect<Int, Int, Int>("Arithmetic.divide") { dividend, divisor in
    guard divisor != 0 else { throw DivisionByZero() }
    return dividend / divisor
  }
}

private struct DivisionByZero: Error {}

@Suite("Declaring effects")
struct EffectTests {
  @Test("with no handler in scope the default implementation runs")
  func defaultImplementation() async throws {
    #expect(Arithmetic.add(2, 3) == 5)
    #expect(await Arithmetic.double(21) == 42)
    #expect(try await Arithmetic.divide(9, 3) == 3)
    await #expect(throws: DivisionByZero.self) { try await Arithmetic.divide(1, 0) }
  }

  @Test("an effect is known by the name it was declared with")
  func name() {
    #expect(Console.readLine.name == "Console.readLine")
    #expect(Arithmetic.divide.name == "Arithmetic.divide")
  }

  @Test("each kind of effect can be handled")
  func handled() async throws {
    await with {
      EffectHandler(Arithmetic.add) { $0 * $1 }
      EffectHandler(Arithmetic.double) { $0 + 1 }
      EffectHandler(Arithmetic.divide) { _, _ in throw DivisionByZero() }
    } perform: {
      #expect(Arithmetic.add(2, 3) == 6)
      #expect(await Arithmetic.double(21) == 22)
      await #expect(throws: DivisionByZero.self) { try await Arithmetic.divide(9, 3) }
    }
  }

  @Test("a handler for another effect of the same shape is not used")
  func otherEffect() {
    let printed = Recorder()
    with {
      EffectHandler(Console.writeLine) { printed.append($0) }
    } perform: {
      with {
        EffectHandler(Console.print) { _ in }
      } perform: {
        Console.writeLine("kept")
        Console.print("dropped")
      }
    }
    #expect(printed.lines == ["kept"])
  }
}
