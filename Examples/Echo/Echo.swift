import Effects
import Synchronization

/// Prints back each line it reads, until the input ends. It knows nothing of the handlers below.
func echo() {
  while let line = Console.readLine() {
    Console.print(line)
  }
}

/// What a module might add: every printed line is uppercased, then passed to the next handler out.
func shouting(_ body: () -> Void) {
  with {
    EffectHandler(Console.print) { Console.print($0.uppercased()) }
  } perform: {
    body()
  }
}

/// What the app might add: every printed line is kept in `log`, then passed on; blank lines are
/// skipped before the program sees them.
func logging(into log: Log, _ body: () -> Void) {
  with {
    EffectHandler(Console.print) { line in
      log.append(line)
      Console.print(line)
    }
    EffectHandler(Console.readLine) {
      while let line = Console.readLine() {
        if !line.isEmpty { return line }
      }
      return nil
    }
  } perform: {
    body()
  }
}

/// The lines printed so far.
final class Log: Sendable {
  private let printed = Mutex<[String]>([])

  func append(_ line: String) {
    printed.withLock { $0.append(line) }
  }

  var lines: [String] { printed.withLock { $0 } }
}
