import Dispatch
import EffectScheduler
import Explore
import ExploreTesting
import Foundation
import Synchronization
import Testing

/// A gate a task spins at, without an await, until the test opens it.
private final class SpinGate: Sendable {
  let open = Atomic<Bool>(false)
  func spin() { while !open.load(ordering: .acquiring) {} }
}

/// A job that blocks its thread hangs its run, as the scheduler runs one job at a time; a watch
/// says so on standard error, and the call that waits for the run gives up after a limit. The
/// warning is read from a child process: this test binary again, running only ``BlockingRun``,
/// which an alarm ends.
@Suite("A job that blocks its thread")
struct BlockedJobTests {
  @Test(
    "fails the call once it has run longer than the limit, naming the step and the task, rather than hang it: a task that spins on a flag without an await, under each search",
    arguments: [ExplorationStrategy.exhaustive, .reduced, .default])
  func failsTheCall(strategy: ExplorationStrategy) async throws {
    let gate = SpinGate()
    var configuration = ExploreConfiguration(progressInterval: nil)
    configuration.scheduler.blockedJobWarning = nil
    configuration.scheduler.blockedJobLimit = .seconds(1)
    let outcome = Mutex<Result<ExplorationFailure, any Error>?>(nil)
    Task.detached { [configuration] in
      let result: Result<ExplorationFailure, any Error>
      do {
        result = .success(
          try await requireFailure(ExplorationFailure.self) {
            try await explore(strategy, configuration: configuration) {
              let spinner = Task { gate.spin() }
              await spinner.value
            }
          })
      } catch {
        result = .failure(error)
      }
      outcome.withLock { $0 = result }
    }
    // Bounded: a call that hangs is let go at the deadline, and the test fails.
    let deadline = ContinuousClock.now + .seconds(60)
    while outcome.withLock({ $0 }) == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
    // The spinning thread, left to its job, goes on once the gate opens, and its search ends.
    gate.open.store(true, ordering: .releasing)
    let failure = try #require(try outcome.withLock { $0 }?.get(), "the exploration hung on a job that spins")
    #expect(failure.summary.contains("step 1 of a run (a job of task #1) did not return within 1.0 seconds"), "\(failure)")
    #expect(failure.summary.contains("a loop that polls a flag without an await"), "\(failure)")
    #expect(failure.location.hasPrefix("ExploreTests/BlockedJobTests.swift:"), "\(failure)")
  }

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
