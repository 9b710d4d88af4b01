import Dispatch
import EffectScheduler
import Effects
import Synchronization
import Testing

/// A wallet shown on screen: its `deposit` reads the balance, suspends, then writes, so two
/// deposits made from plain tasks can lose one.
@MainActor
private final class Wallet {
  private(set) var balance = 0

  func deposit(_ amount: Int) async {
    let current = balance
    await Task.yield()
    balance = current + amount
  }
}

/// An account whose `deposit` suspends between reading and writing, like `Wallet`'s, but on a
/// default actor.
private actor Account {
  private(set) var balance = 0

  func deposit(_ amount: Int) async {
    let current = balance
    await Task.yield()
    balance = current + amount
  }

  func depositLater(_ amount: Int) async {
    try? await Task.sleep(for: .seconds(5))
    balance += amount
  }

  func depositFromNewTask(_ amount: Int) async {
    await Task { await self.deposit(amount) }.value
  }
}

/// A one-shot signal between threads, with bounded waits.
private final class Signal: Sendable {
  private let semaphore = DispatchSemaphore(value: 0)
  private let raised = Atomic<Bool>(false)

  var isRaised: Bool { raised.load(ordering: .acquiring) }

  func raise() {
    raised.store(true, ordering: .releasing)
    semaphore.signal()
  }

  /// Blocks the calling thread until the signal is raised or `seconds` pass; returns whether it was raised.
  func waitBlocking(seconds: Int) -> Bool {
    semaphore.wait(timeout: .now() + .seconds(seconds)) == .success
  }
}

@Suite("Plain tasks")
struct PlainTaskTests {
  /// Two deposits from a plain `Task` and a `Task.detached`; returns the balance.
  @Sendable static func twoDeposits() async -> Int {
    let wallet = Wallet()
    let first = Task { await wallet.deposit(10) }
    let second = Task.detached { await wallet.deposit(20) }
    await first.value
    await second.value
    return await wallet.balance
  }

  @Test("Task {} and Task.detached {} made by controlled code are unstructured tasks of their creator, with no work from outside")
  func registered() async throws {
    let execution = try await DeterministicScheduler.run {
      let plain = Task {
        await Task.yield()
        let nested = Task { await Task.yield(); return 1 }
        return await nested.value + 1
      }
      let detached = Task.detached { await Task.yield(); return 10 }
      return await plain.value + detached.value
    }
    #expect(execution.value == 12)
    let tasks = execution.trace.tasks
    #expect(tasks.map(\.kind) == [.root, .unstructured, .unstructured, .unstructured])
    // The plain and the detached task were made by the root, the nested one by the plain task.
    #expect(tasks.map(\.parent) == [nil, TaskID(0), TaskID(0), TaskID(1)])
    for task in tasks.dropFirst() {
      let kinds = execution.trace.events.filter { $0.task == task.id }.map(\.kind)
      #expect(kinds.contains(.started) && kinds.contains(.resumed), "\(task) ran \(kinds)")
    }
    #expect(!execution.trace.events.contains { $0.fromOutside })
    #expect(execution.trace.stepsWithWorkFromOutside.isEmpty)
  }

  @Test("a plain task that suspends is named after Task(name:)")
  func named() async throws {
    let execution = try await DeterministicScheduler.run {
      let plain = Task(name: "plain") { await Task.yield() }
      let detached = Task.detached(name: "detached") { await Task.yield() }
      await plain.value
      await detached.value
    }
    #expect(execution.trace.tasks.count == 3)
    #expect(execution.trace.tasks.map(\.name) == ["root", "plain", "detached"])
  }

  @Test("a plain task that returned is recorded as completed and is not listed as unfinished")
  func completed() async throws {
    let execution = try await DeterministicScheduler.run {
      await Task { await Task.yield() }.value
    }
    #expect(execution.trace.tasks.count == 2)
    #expect(execution.trace.events.last { $0.task == TaskID(1) }?.kind == .completed)
    #expect(execution.unfinishedTasks.isEmpty)
  }

  @Test("a plain task completes at its last step, not when it cancels a sleeper, creates a task or drops its handle")
  func completesAtItsLastStep() async throws {
    let execution = try await DeterministicScheduler.run {
      let sleeper = Task(name: "sleeper") { try? await Task.sleep(for: .seconds(60)) }
      let canceller = Task(name: "canceller") {
        await Task.yield()
        sleeper.cancel()
        var child: Task<Void, Never>? = Task(name: "child") { await Task.yield() }
        await child?.value
        child = nil
        await Task.yield()
      }
      await canceller.value
      await sleeper.value
    }
    let trace = execution.trace
    #expect(execution.unfinishedTasks.isEmpty)
    for task in trace.tasks.dropFirst() {
      let events = trace.events.filter { $0.task == task.id }
      #expect(events.filter { $0.kind == .completed }.count == 1, "\(task)")
      #expect(events.last?.kind == .completed, "\(task) completed before its last step")
    }
  }

  #if os(Linux) && _pointerBitWidth(_64)
    @Test("a detached task's completion is seen, though it copies no task-local values: the run adopted it")
    func detachedCompletionSeen() async throws {
      let execution = try await DeterministicScheduler.run {
        await Task.detached { await Task.yield() }.value
      }
      #expect(execution.unfinishedTasks.isEmpty)
      #expect(execution.trace.events.filter { $0.task == TaskID(1) && $0.kind == .completed }.count == 1)
    }

    @Test("two plain tasks served by one actor job: each completes once in the trace, and none is left unfinished")
    func completionsOnOneActorJob() async throws {
      for seed in 0..<20 as Range<UInt64> {
        let execution = try await DeterministicScheduler.run(strategy: .random(seed: seed)) {
          let account = Account()
          let first = Task { await account.deposit(1) }
          let second = Task { await account.deposit(2) }
          await first.value
          await second.value
        }
        #expect(execution.unfinishedTasks.isEmpty, "seed \(seed)")
        for task in execution.trace.tasks.dropFirst() {
          let completions = execution.trace.events.filter { $0.task == task.id && $0.kind == .completed }
          #expect(completions.count == 1, "seed \(seed): \(task) completed \(completions.count) times")
        }
      }
    }
  #endif

  @Test("a lost update between a plain Task and a Task.detached shows up under some seed and not under another")
  func lostUpdateDependsOnSchedule() async throws {
    try await expectLostUpdateDependsOnSchedule(Self.twoDeposits) { execution in
      #expect(execution.trace.stepsWithWorkFromOutside.isEmpty)
    }
  }

  @Test("a plain task's Task.yield() and Task.sleep inside a default actor's method, and a Task {} the method creates, stay under the scheduler")
  func insideActorMethods() async throws {
    let execution = try await DeterministicScheduler.run {
      let account = Account()
      await Task { await account.deposit(10) }.value
      await Task { await account.depositLater(5) }.value
      await account.depositFromNewTask(1)
      return await account.balance
    }
    #expect(execution.value == 16)
    #expect(execution.trace.stepsWithWorkFromOutside.isEmpty)
    #expect(execution.trace.clockAdvances.map(\.time) == [Duration.seconds(5)], "the 5 s sleep took virtual time only")
    #expect(execution.trace.tasks.count == 4)
    #expect(execution.unfinishedTasks.isEmpty, "the task isolated to the actor completes within the actor's job")
  }

  @Test("a plain Task created outside any scheduler while a run is under way runs normally, in real time")
  func outsideTaskUntouched() async throws {
    let runStarted = Signal()
    let release = Signal()
    // The program holds its driver thread until released, so the run is under way throughout.
    // Under the full suite's load the cooperative pool can take more than 10 s to run the outside
    // task (13–15 s in three suite runs, past 17 s in a fourth), so the bound is a minute.
    async let run = DeterministicScheduler.run {
      runStarted.raise()
      return release.waitBlocking(seconds: 60)
    }
    for _ in 0..<1_000 where !runStarted.isRaised { try await Task.sleep(for: .milliseconds(10)) }
    #expect(runStarted.isRaised)

    let finished = Signal()
    let started = ContinuousClock.now
    let outside = Task(name: "outside") { () -> Bool in
      defer { finished.raise() }
      await Task.yield()
      try? await Task.sleep(for: .milliseconds(50))
      return DeterministicScheduler.current == nil
    }
    for _ in 0..<6_000 where !finished.isRaised { try await Task.sleep(for: .milliseconds(10)) }
    let elapsed = started.duration(to: .now)
    release.raise()
    let execution = try await run

    try #require(finished.isRaised, "the outside task did not finish within 60 s")
    #expect(await outside.value)
    #expect(elapsed >= .milliseconds(50), "its sleep took real time")
    #expect(execution.value, "the outside task finished while the run was under way")
    #expect(execution.trace.tasks.count == 1)
    #expect(execution.trace.stepsWithWorkFromOutside.isEmpty)
  }
}
