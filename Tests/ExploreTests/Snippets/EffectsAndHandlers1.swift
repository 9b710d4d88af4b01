// Code block 1 of Sources/Effects/Effects.docc/EffectsAndHandlers.md, as the article prints it: `SnippetTests` checks, word for word, that
// every Swift block of the articles and the README is the text between the markers of a file here.

// snippet begins
import Effects
import Foundation

enum Console {
  static let readLine = Effect<String?>("Console.readLine") { Swift.readLine() }
  static let print = Effect<String, Void>("Console.print") { Swift.print($0) }
}
enum Files {
  static let contents = ThrowingAsyncEffect<URL, Data>("Files.contents") { try Data(contentsOf: $0) }
}

func echo() {
  while let line = Console.readLine() { Console.print(line) }
}
// snippet ends
