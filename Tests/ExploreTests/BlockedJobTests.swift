import Dispatch
import EffectScheduler
import Explore
import Foundation
import Testing

/// A job that blocks its thread hangs its run, as the scheduler runs one job at a time; a watch
/// says so on standard error. The hang happens in a child process: this test binary again, running
/// only ``BlockingRun``, which an alarm ends.
@Suite("A job that blocks its thread")
struct BlockedJobTests {
  #if os(Linux)
    @Test("is named in a warning once it has run longer than the configured time")
    func warns() throws {
      // The child ends by itself, at its alarm, a few seconds after the warning.
      let (output, _) = try ChildProcess.run(suite: "BlockingRun", setting: "EXPLORE_BLOCKING_RUN")
      #expect(output.contains("EffectScheduler: step 1 of a run (a job of task #1) has not returned for 1.0 seconds or more"), "\(output)")
      #expect(output.contains("DispatchSemaphore.wait()"), "\(output)")
    }
  #endif
}

/// The child's part: an exploration whose first task blocks its thread on a semaphore no one
/// signals. An alarm ends the process 4 s in, 3 s after the warning.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["EXPLORE_BLOCKING_RUN"] != nil))
struct BlockingRun {
  @Test func blocksOnASemaphore() async throws {
    #if os(Linux)
      alarm(4)
    #endif
    var configuration = ExploreConfiguration(progressInterval: nil)
    configuration.scheduler.blockedJobWarning = .seconds(1)
    try await explore(.exhaustive, configuration: configuration) {
      let semaphore = DispatchSemaphore(value: 0)
      let waiter = Task { semaphore.wait() }
      await waiter.value
    }
  }
}
