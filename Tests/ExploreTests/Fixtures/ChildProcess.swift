import Foundation

/// This test binary run again as a child process, for a test of what ends or hangs a process:
/// only the tests of one suite run there, enabled by an environment variable.
enum ChildProcess {
  /// Runs the tests of `suite` in a child process with `variable` set, and returns what it wrote to
  /// standard error and how it ended. The child must end by itself (a trap, or an alarm).
  static func run(suite: String, setting variable: String) throws -> (errors: String, reason: Process.TerminationReason) {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments = ["--testing-library", "swift-testing", "--filter", suite]
    child.environment = ProcessInfo.processInfo.environment.merging([variable: "1"]) { $1 }
    let errors = Pipe()
    child.standardError = errors
    child.standardOutput = FileHandle.nullDevice
    try child.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    child.waitUntilExit()
    return (text, child.terminationReason)
  }
}
