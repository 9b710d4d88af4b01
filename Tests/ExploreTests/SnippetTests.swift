import Foundation
import Testing

/// Every Swift code block of the DocC articles and the README compiles: each is, word for word,
/// the code between the markers of a file of `Snippets/` (or, for the README's complete test, of
/// `ReadmeTests.swift`), which this target compiles and, for tests, runs, or of a recipe of
/// `Tests/Ecosystem`, which that package compiles and runs. Blocks of package manifest lines,
/// which only a manifest compiles, are the exception.
@Suite("The documentation's code")
struct SnippetTests {
  private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  @Test("every Swift block of the articles and the README is code this target compiles")
  func everyBlockCompiles() throws {
    let compiled = try Self.compiledSnippets()
    #expect(compiled.count >= 10)
    var blocks = 0
    for document in try Self.documents() {
      let text = try String(contentsOf: document, encoding: .utf8)
      for (index, block) in Self.swiftBlocks(of: text).enumerated() where !block.hasPrefix(".") {
        blocks += 1
        #expect(compiled.contains(block), "block \(index + 1) of \(document.lastPathComponent) is in no snippet file")
      }
    }
    #expect(blocks >= 10)
  }

  /// The code between the markers of every snippet file, and the README's complete test.
  private static func compiledSnippets() throws -> Set<String> {
    let folder = root.appendingPathComponent("Tests/ExploreTests/Snippets")
    var files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).map {
      ($0, "// snippet begins\n", "// snippet ends\n")
    }
    // The recipes that run ecosystem libraries, compiled and run by the package of their own.
    let ecosystem = root.appendingPathComponent("Tests/Ecosystem/Tests/RecipeTests")
    files += try FileManager.default.contentsOfDirectory(at: ecosystem, includingPropertiesForKeys: nil).filter {
      try String(contentsOf: $0, encoding: .utf8).contains("// snippet begins\n")
    }.map { ($0, "// snippet begins\n", "// snippet ends\n") }
    files.append((root.appendingPathComponent("Tests/ExploreTests/ReadmeTests.swift"), "// README begins\n", "// README ends\n"))
    var snippets: Set<String> = []
    for (file, begin, end) in files {
      let source = try String(contentsOf: file, encoding: .utf8)
      let start = try #require(source.range(of: begin), "\(file.lastPathComponent) has no \(begin)")
      let stop = try #require(source.range(of: end, range: start.upperBound..<source.endIndex), "\(file.lastPathComponent) has no \(end)")
      snippets.insert(String(source[start.upperBound..<stop.lowerBound]))
    }
    return snippets
  }

  /// The README and every article of the four catalogues.
  private static func documents() throws -> [URL] {
    var documents = [root.appendingPathComponent("README.md")]
    for module in ["EffectScheduler", "Effects", "Explore", "ExploreTesting"] {
      let catalogue = root.appendingPathComponent("Sources/\(module)/\(module).docc")
      documents += try FileManager.default.contentsOfDirectory(at: catalogue, includingPropertiesForKeys: nil).filter { $0.pathExtension == "md" }
    }
    return documents
  }

  /// The code of each block fenced as Swift, with its final line break.
  private static func swiftBlocks(of text: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```swift" {
        current = []
      } else if let lines = current, line == "```" {
        blocks.append(lines.map { $0 + "\n" }.joined())
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }
}
