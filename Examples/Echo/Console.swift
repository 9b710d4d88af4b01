import Effects

/// The terminal, as two effects: the echo program performs them, and handlers decide what they do.
enum Console {
  /// Reads a line from standard input; `nil` at the end of input.
  static let readLine = Effect<String?>("Console.readLine") { Swift.readLine() }
  /// Writes a line to standard output.
  static let print = Effect<String, Void>("Console.print") { Swift.print($0) }
}
