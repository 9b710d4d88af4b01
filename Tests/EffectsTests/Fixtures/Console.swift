import Effects

/// The console of the reference's echo program, as effects. Reading never touches the real
/// standard input, so a test that reaches the default implementation cannot block.
enum Console {
  static let readLine = Effect<String?>("Console.readLine") { nil }
  static let print = Effect<String, Void>("Console.print") { Swift.print($0) }
  static let writeLine = Effect<String, Void>("Console.writeLine") { Swift.print($0) }
}

/// Prints back each line it reads, until there is none.
func echo() {
  while let line = Console.readLine() {
    Console.print(line)
  }
}
