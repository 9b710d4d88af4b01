// Code block 1 of Sources/Effects/Effects.docc/TestingWithScripts.md, as the article prints it: `SnippetTests` checks, word for word, that
// every Swift block of the articles and the README is the text between the markers of a file here.

// snippet begins
import Effects
import Testing

@Test func echoesOneLine() async throws {
  try await withTestHandler {
    echo()
  } test: { effect in
    try await effect.expect(Console.readLine, return: "Hello")
    try await effect.expect(Console.print) { line in #expect(line == "Hello") }
    try await effect.expect(Console.readLine, return: nil)
  }
}
// snippet ends
