import Explore
import Foundation
import InstrumentedBugCatalogue
import Testing

/// A process's first listening runs: the Swift runtime makes the generic metadata of the types a
/// program first uses as it runs, allocating while it holds its metadata lock. The allocation
/// handler, run there, first took a path that needed metadata made too, and waited for that lock
/// for good (the Benchmarks' instrumented philosophers, the first thing in their process). So a
/// fresh process, in which nothing else ran first, explores the instrumented philosophers.
@Suite("Instrumented code: a process's first listening runs")
struct FirstListeningRunTests {
  #if os(Linux)
    @Test("end, where the runtime allocates while it holds its locks")
    func firstRunsEnd() throws {
      let child = Process()
      child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
      child.arguments = ["--testing-library", "swift-testing", "--filter", "FirstListeningRun\\b"]
      child.environment = ProcessInfo.processInfo.environment.merging(["EXPLORE_FIRST_LISTENING_RUN": "1"]) { $1 }
      child.standardOutput = FileHandle.nullDevice
      child.standardError = FileHandle.nullDevice
      try child.run()
      // About 2 s when it ends; the bound is for a loaded machine.
      let deadline = Date().addingTimeInterval(120)
      while child.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
      let hung = child.isRunning
      if hung {
        child.terminate()
        child.waitUntilExit()
      }
      #expect(!hung, "the child process did not end within 120 s")
      #expect(hung || child.terminationStatus == 0)
    }
  #endif
}

/// The child's part: the instrumented philosophers, as the first thing its process does.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["EXPLORE_FIRST_LISTENING_RUN"] != nil))
struct FirstListeningRun {
  @Test func philosophersFirst() async throws {
    for bug in ClassicBug.all where bug.name.hasPrefix("dining philosophers") {
      var configuration = bug.configuration
      configuration.checksDeterminism = false
      let summary = try await explore(.exhaustive(maxSchedules: 500), configuration: configuration, bug.fixed)
      #expect(summary.instrumented)
    }
  }
}
