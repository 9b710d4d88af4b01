// Code block 1 of Sources/ExploreTesting/ExploreTesting.docc/ExploreTesting.md, as the article prints it: `SnippetTests` checks, word for word, that
// every Swift block of the articles and the README is the text between the markers of a file here.

// snippet begins
import ExploreTesting
import Testing

@Test(.explore(.exhaustive)) func transferKeepsTotalWithAsyncLet() async throws {
  let bank = Bank(balances: [100, 0])
  async let a: Void = bank.transfer(50, from: 0, to: 1)
  async let b: Void = bank.transfer(30, from: 1, to: 0)
  _ = await (a, b)
  #expect(await bank.total == 100)
}
// snippet ends
