import EffectScheduler
import Effects
import Explore
import ExploreTesting
import Testing

/// A counter, and a signal its callers can wait for.
private actor Counter {
  private(set) var count = 0
  private var waiting: [CheckedContinuation<Void, Never>] = []

  func increment() { count += 1 }

  /// Suspends on the actor until ``signal()``.
  func waitForSignal() async { await withCheckedContinuation { waiting.append($0) } }

  func signal() {
    for waiter in waiting { waiter.resume() }
    waiting = []
  }
}

/// The error the program below ends with, so that its first schedule is reported.
private struct Checked: Error {}

@Suite("Actor work in failure reports")
struct ReportedActorWorkTests {
  @Test("the report's trace lists a task that queued on an actor already scheduled and suspended there, unseen by the search")
  func queuedTaskIsListed() async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: ExploreConfiguration(minimizationBudget: 0)) {
        let counter = Counter()
        // Under the first schedule, `first` schedules the counter's job and `second` joins its
        // queue. The job hands the root over as `first` completes, and goes on with `second` as a
        // step of its own, after the root has joined the queue too; `second` then suspends on the
        // actor, which hands nothing to the scheduler, and the job goes on with the root's work.
        let first = Task.effect(name: "first") { await counter.increment() }
        let second = Task.effect(name: "second") { await counter.waitForSignal() }
        await first.value
        await counter.signal()
        await second.value
        throw Checked()
      }
    }
    let trace = try #require(failure.trace)
    #expect(trace.actorJobTasks.values.contains([TaskID(2), TaskID(0)]), "\(trace)")
    #expect(failure.description.contains("Counter for #2 second, #0 root"), "\(failure)")
  }
}
