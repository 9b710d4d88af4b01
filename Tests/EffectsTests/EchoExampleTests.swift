@testable import Echo
import Effects
import Testing

@Suite("The Echo example")
struct EchoExampleTests {
  @Test("the composed handlers skip blank lines, uppercase and log; the script sees what reaches the terminal")
  func composedEcho() async throws {
    let log = Log()
    try await withTestHandler {
      logging(into: log) {
        shouting {
          Echo.echo()
        }
      }
    } test: { effect in
      try await effect.expect(Echo.Console.readLine, return: "hello")
      try await effect.expect(Echo.Console.print) { #expect($0 == "HELLO") }
      try await effect.expect(Echo.Console.readLine, return: "")
      try await effect.expect(Echo.Console.readLine, return: "good bye")
      try await effect.expect(Echo.Console.print) { #expect($0 == "GOOD BYE") }
      try await effect.expect(Echo.Console.readLine, return: nil)
    }
    #expect(log.lines == ["HELLO", "GOOD BYE"])
  }
}
