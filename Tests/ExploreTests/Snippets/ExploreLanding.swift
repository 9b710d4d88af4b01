// Code block 1 of Sources/Explore/Explore.docc/Explore.md, as the article prints it: `SnippetTests` checks, word for word, that
// every Swift block of the articles and the README is the text between the markers of a file here.

// snippet begins
import Explore
import Testing

@Test func transferKeepsTotal() async throws {
  try await explore(.exhaustive) {
    let bank = Bank(balances: [100, 0])
    let a = Task { await bank.transfer(50, from: 0, to: 1) }
    let b = Task { await bank.transfer(30, from: 1, to: 0) }
    _ = await (a.value, b.value)
    #expect(await bank.total == 100)
  }
}
// snippet ends
