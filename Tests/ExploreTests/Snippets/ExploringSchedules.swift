// Code block 1 of Sources/Explore/Explore.docc/ExploringSchedules.md, as the article prints it: `SnippetTests` checks, word for word, that
// every Swift block of the articles and the README is the text between the markers of a file here.

// snippet begins
import Effects
import Explore
import Testing

@Test func transferKeepsTotalOfThreeAccounts() async throws {
  try await explore(.exhaustive) {            // fresh state inside, every schedule
    let bank = Bank(balances: [100, 0, 0])
    let a = Task.effect(name: "A") { await bank.transfer(50, from: 0, to: 1) }
    let b = Task.effect(name: "B") { await bank.transfer(30, from: 1, to: 2) }
    _ = await (a.value, b.value)
    try #require(await bank.total == 100)     // a thrown error fails this schedule
  }
}
// snippet ends
