import EffectScheduler

/// Why a test script and its program disagreed: what the script expected, what the program did,
/// and the script line where it happened.
///
/// `withTestHandler` throws the first failure of a run, so a test fails with a message such as
///
/// ```
/// EchoTests.swift:21:5: expected Console.print, but the program performed Console.readLine()
/// ```
///
/// When Swift Testing or XCTest runs the test and the test target links `ExploreTesting`, the
/// failure is also recorded as an issue at that script line before it is thrown.
public struct EffectTestFailure: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Problem: Hashable, Sendable {
    /// The script expected `expected`, and the program did `performed` instead.
    case mismatch(expected: String, performed: String)
    /// The script expected `expected`, and the program ended, with `error` if it threw.
    case programEnded(expected: String, error: String?)
    /// The script expected `expected`, and the program waits for the script to enqueue `tasks`.
    case waitingForTasks(expected: String, tasks: [String])
    /// The script ended while the program waited on `performed`.
    case unanswered(performed: String)
    /// The program did `performed` after the script had ended.
    case performedAfterScriptEnded(performed: String)
    /// The stream `stream` yielded `element`, which the script did not expect: the script ended
    /// before taking it, or had ended when it came.
    case unexpectedElement(stream: String, element: String)
    /// The script expected `expected`, and the program waits for the script to deliver `elements`.
    case waitingForElements(expected: String, elements: [String])
    /// The script tried to fail `stream`, an `AsyncStream`, which can only finish.
    case streamCannotFail(stream: String)
  }

  /// What went wrong.
  public var problem: Problem
  /// The file of the script line, as `#fileID` gives it.
  public var fileID: String
  /// The file of the script line, as `#filePath` gives it.
  public var filePath: String
  /// The script line.
  public var line: Int
  /// The column of the script line.
  public var column: Int

  init(_ problem: Problem, at site: CallSite) {
    self.problem = problem
    fileID = site.fileID
    filePath = site.filePath
    line = site.line
    column = site.column
  }

  /// `File.swift:12:5: ` and one sentence.
  public var description: String {
    "\(fileID):\(line):\(column): " + sentence
  }

  /// What went wrong, in one sentence without the place: the text of the issue recorded there.
  var sentence: String {
    switch problem {
    case .mismatch(let expected, let performed):
      return "expected \(expected), but the program performed \(performed)"
    case .programEnded(let expected, let error):
      return "expected \(expected), but the program finished" + (error.map { " with an error: \($0)" } ?? "")
    case .waitingForTasks(let expected, let tasks):
      let names = tasks.map { "\"\($0)\"" }.joined(separator: ", ")
      return "expected \(expected), but the program waits for the script to enqueue task \(names)"
    case .unanswered(let performed):
      return "the test script ended while the program waited on \(performed)"
    case .performedAfterScriptEnded(let performed):
      return "the program performed \(performed) after the test script ended"
    case .unexpectedElement(let stream, let element):
      return "the stream \"\(stream)\" yielded \(element), which the test script did not expect"
    case .waitingForElements(let expected, let elements):
      return "expected \(expected), but the program waits for the script to deliver \(elements.joined(separator: ", "))"
    case .streamCannotFail(let stream):
      return "the stream \"\(stream)\" is an AsyncStream, which cannot fail; finish it instead"
    }
  }

  /// Where the failure happened.
  var site: CallSite {
    CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
