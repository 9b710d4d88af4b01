// Echoes standard input, uppercased, and counts the lines it echoed, by composing handlers
// around an echo program that only performs Console.readLine and Console.print.
//
//   printf 'hello\n\ngood bye\n' | swift run Echo
//   HELLO
//   GOOD BYE
//   (echoed 2 lines)

let log = Log()
logging(into: log) {
  shouting {
    echo()
  }
}
Console.print("(echoed \(log.lines.count) lines)")
