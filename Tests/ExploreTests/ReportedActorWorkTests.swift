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
        // queue; `second` then suspends on the actor, which hands nothing to the scheduler.
        let first = Task.effect(name: "first") { await counter.increment() }
        let second = Task.effect(name: "second") { await counter.waitForSignal() }
        await first.value
        await counter.signal()
        await second.value
        throw Checked()
      }
    }
    let trace = try #require(failure.trace)
    #expect(trace.actorJobTasks.values.contains([TaskID(1), TaskID(2)]), "\(trace)")
    #expect(failure.description.contains("Counter for #1 first, #2 second"), "\(failure)")
  }
}
