import Foundation
import Testing

// The README's complete test, as the README prints it; `readmeHoldsThisCode` checks that the
// README's code block is this file's text between the markers, word for word.

// README begins
import Explore
import Testing

actor Bank {
  private var balances: [Int]
  init(balances: [Int]) { self.balances = balances }
  var total: Int { balances.reduce(0, +) }

  func transfer(_ amount: Int, from: Int, to: Int) async {
    guard balances[from] >= amount else { return }
    balances[from] -= amount
    balances[to] += amount
    await Task.yield()  // an audit, a network call: any suspension, after the update
  }
}

@Test func transfersKeepTheTotal() async throws {
  try await explore(.exhaustive) {
    let bank = Bank(balances: [100, 100])
    let a = Task { await bank.transfer(50, from: 0, to: 1) }
    let b = Task { await bank.transfer(30, from: 1, to: 0) }
    _ = await (a.value, b.value)
    #expect(await bank.total == 200)
  }
}
// README ends

@Test("the README's complete test is this file's code")
func readmeHoldsThisCode() throws {
  let source = try String(contentsOfFile: #filePath, encoding: .utf8)
  let start = try #require(source.range(of: "// README begins\n"))
  let end = try #require(source.range(of: "// README ends\n", range: start.upperBound..<source.endIndex))
  let code = source[start.upperBound..<end.lowerBound]
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
  #expect(readme.contains("## A complete test\n\n```swift\n" + code + "```\n"))
}

@Test("the README's table of what is under control is the article's, word for word")
func underControlTableMatches() throws {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
  let article = try String(
    contentsOf: root.appendingPathComponent("Sources/EffectScheduler/EffectScheduler.docc/WhatIsUnderControl.md"), encoding: .utf8)
  let start = try #require(readme.range(of: "| code under test | under control? |"))
  let end = readme.range(of: "\n\n", range: start.lowerBound..<readme.endIndex)?.lowerBound ?? readme.endIndex
  let table = readme[start.lowerBound..<end]
  #expect(table.split(separator: "\n").count > 5)
  #expect(article.contains(table))
}
