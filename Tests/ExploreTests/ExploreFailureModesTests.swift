import Dispatch
import EffectScheduler
import Effects
import Explore
import ExploreTesting
import Synchronization
import Testing

/// State that outlives one run: what makes a program behave differently the second time.
private let runsSoFar = Atomic<Int>(0)

@Suite("Nondeterminism, livelock and deadlock")
struct ExploreFailureModesTests {
  @Test("a program that behaves differently on the same schedule is reported as nondeterministic")
  func nondeterminism() async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive) {
        let odd = runsSoFar.add(1, ordering: .relaxed).newValue % 2 == 1
        let task = Task.effect(name: "worker") { if odd { await Task.yield() } }
        await task.value
      }
    }
    #expect(failure.summary.contains("nondeterminism"))
    #expect(failure.scheduleNumber == 1)
  }

  @Test("a run past the step cap fails as a possible livelock, with its trace")
  func livelock() async throws {
    var configuration = ExploreConfiguration()
    configuration.scheduler.maxSteps = 300
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: configuration) {
        let spinner = Task.effect(name: "spinner") {
          while !Task.isCancelled { await Task.yield() }
        }
        await spinner.value
      }
    }
    #expect(failure.summary.contains("possible livelock"))
    #expect(failure.description.contains("earlier steps not shown"))
    #expect(failure.description.contains("#1 spinner"))
  }

  @Test("a deadlock names each blocked task")
  func deadlock() async throws {
    var configuration = ExploreConfiguration()
    configuration.scheduler.outsideWorldTimeout = .milliseconds(100)
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: configuration) {
        let never = AsyncStream<Int>.makeStream()
        let waiter = Task.effect(name: "waiter") { for await _ in never.stream {} }
        await waiter.value
      }
    }
    #expect(failure.summary.contains("deadlock"))
    #expect(failure.summary.contains("#1 waiter"))
    #expect(failure.summary.contains("#0 root"))
  }

  @Test("a dispatch source a task resumes is work from outside naming the hand-off, 20 times out of 20, however the race goes")
  func dispatchSourceIsWorkFromOutside() async throws {
    // A signal source of swift-service-lifecycle's kind: its registration handler, on a queue the
    // scheduler does not control, resumes the task's wait, before or after the task waits.
    try await Self.expectWorkFromOutside(handedTo: "DispatchObject.resume") { continuation in
      let source = DispatchSource.makeUserDataAddSource(queue: .global())
      source.setRegistrationHandler {
        continuation.resume()
        source.cancel()
      }
      source.resume()
    }
  }

  @Test("a continuation a dispatch queue resumes is work from outside naming the hand-off, 20 times out of 20, however the race goes")
  func dispatchResumeIsWorkFromOutside() async throws {
    // The queue may resume the continuation before the task waits on it, unseen, or after, when
    // the resumption comes back from outside: the hand-off to the queue fails the run either way.
    try await Self.expectWorkFromOutside(handedTo: "DispatchQueue.async") { continuation in
      DispatchQueue.global().async { continuation.resume() }
    }
  }

  @Test("a continuation Dispatch resumes only after the wait for the outside world ended is work from outside too, not a deadlock")
  func dispatchTooLateIsWorkFromOutside() async throws {
    // As on a machine so busy that a dispatch queue's worker runs only after the run gave up.
    var configuration = ExploreConfiguration(progressInterval: nil)
    configuration.scheduler.outsideWorldTimeout = .milliseconds(20)
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: configuration) {
        let waiter = Task.effect(name: "waiter") {
          await withCheckedContinuation { continuation in
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { continuation.resume() }
          }
        }
        await waiter.value
      }
    }
    #expect(failure.summary.hasPrefix("work from outside the scheduler took part"), "\(failure.summary)")
    #if os(Linux)
      #expect(failure.summary.contains("the program handed work to DispatchQueue.asyncAfter at step 1 by #1 waiter"), "\(failure.summary)")
      #expect(failure.summary.contains("The run then got stuck waiting for it"), "\(failure.summary)")
    #endif
  }

  /// Explores, 20 times, a task waiting on a continuation that `handOff` gives to Dispatch to
  /// resume, and expects each exploration to fail as work from outside, naming the call the work
  /// was handed to (on Linux; elsewhere a resumption before the task waits goes unseen).
  private static func expectWorkFromOutside(
    handedTo call: String, _ handOff: @escaping @Sendable (CheckedContinuation<Void, Never>) -> Void
  ) async throws {
    for _ in 0..<20 {
      do {
        let summary = try await withExpectedFailures {
          try await explore(.exhaustive, configuration: ExploreConfiguration(progressInterval: nil)) {
            let waiter = Task.effect(name: "waiter") { await withCheckedContinuation(handOff) }
            await waiter.value
          }
        }
        #if os(Linux)
          Issue.record("the exploration passed: \(summary)")
        #else
          _ = summary
        #endif
      } catch let failure as ExplorationFailure {
        let summary = failure.summary
        #expect(summary.hasPrefix("work from outside the scheduler took part"), "\(summary)")
        #if os(Linux)
          #expect(summary.contains("the program handed work to \(call) at step 1 by #1 waiter"), "\(summary)")
        #endif
      }
    }
  }
}
