import BugCatalogue
import EffectScheduler
import Foundation
import Synchronization
import Testing

/// Each run below has a 90-second `outsideWorldTimeout`: a deadlock that nothing outside can end
/// is reported without waiting it out, and a wait that another thread ends is waited for.
@Suite("Deadlocks nothing outside can end are reported without waiting on the clock")
struct ImmediateDeadlockTests {
  static let patient = SchedulerConfiguration(outsideWorldTimeout: .seconds(90))
  /// Half the timeout, so a run that waited it out fails. A report takes milliseconds, but while
  /// the whole suite runs on 2 cores a test can wait 15 s for a thread to resume it.
  static let bound = Duration.seconds(45)

  #if os(Linux) && _pointerBitWidth(_64)
    @Test("two tasks awaiting each other's value are reported as a deadlock at once, though the timeout is 90 s")
    func tasksAwaitingEachOther() async throws {
      let clock = ContinuousClock()
      let start = clock.now
      let error = try await #require(throws: SchedulerError.self) {
        try await DeterministicScheduler.run(configuration: Self.patient) {
          let handles = Handles()
          let a = Task.effect(name: "A") { await handles.waitForB() }
          handles.b = Task.effect(name: "B") { await a.value }
          await a.value
        }
      }
      #expect(clock.now - start < Self.bound, "the deadlock was reported only after the timeout")
      guard case .deadlock(let blocked) = error.reason else {
        Issue.record("expected a deadlock, got \(error.summary)")
        return
      }
      #expect(blocked.map(\.waitingOn) == ["task #1 A", "task #2 B", "task #1 A"])
    }

    /// Had the scheduler waited out the timeout, it would report a stall, since work came from
    /// outside: the deadlock shows it did not wait.
    @Test("a deadlock after work came back from another thread is reported at once too, as a deadlock")
    func deadlockAfterOutsideWork() async throws {
      let error = try await #require(throws: SchedulerError.self) {
        try await DeterministicScheduler.run(configuration: Self.patient) {
          await withCheckedContinuation { continuation in
            Thread.detach(after: .milliseconds(20)) { continuation.resume() }
          }
          let handles = Handles()
          let a = Task { await handles.waitForB() }
          handles.b = Task { await a.value }
          await a.value
        }
      }
      #expect(error.trace.events.contains { $0.fromOutside })
      guard case .deadlock = error.reason else {
        Issue.record("expected a deadlock, got \(error.summary)")
        return
      }
    }

    @Test("two tasks taking two locks in opposite orders deadlock on continuations, reported at once though the timeout is 90 s")
    func lockOrderDeadlock() async throws {
      let clock = ContinuousClock()
      let start = clock.now
      let error = try await #require(throws: SchedulerError.self) {
        try await DeterministicScheduler.run(strategy: .fifo, configuration: Self.patient) {
          try await ClassicBug.lockOrderDeadlock.buggy()
        }
      }
      #expect(clock.now - start < Self.bound, "the deadlock was reported only after the timeout")
      guard case .deadlock(let blocked) = error.reason else {
        Issue.record("expected a deadlock, got \(error.summary)")
        return
      }
      #expect(blocked.filter { $0.waitingOn == "a continuation that no task of the program can resume any more" }.count == 2, "\(error)")
    }

    /// A thread that exists before the run starts another, which outlives the 90 s timeout, while
    /// the run runs: a census of the threads begun during the run would wait the timeout out for
    /// it; it is not the run's.
    @Test("a thread another thread starts during the run does not hold back a deadlock report")
    func foreignThreadDoesNotHoldBack() async throws {
      let helper = Worker()
      let started = DispatchSemaphore(value: 0)
      let clock = ContinuousClock()
      let start = clock.now
      let error = try await #require(throws: SchedulerError.self) {
        try await DeterministicScheduler.run(configuration: Self.patient) {
          helper.run(after: .zero) {
            Thread.detach(after: .seconds(120)) {}
            started.signal()
          }
          started.wait()
          try await ClassicBug.lockOrderDeadlock.buggy()
        }
      }
      #expect(clock.now - start < Self.bound, "the report waited for a thread that was not the run's")
      guard case .deadlock = error.reason else {
        Issue.record("expected a deadlock, got \(error.summary)")
        return
      }
    }

    /// Longer than the grace a continuation gets, so only knowing the thread is the run's keeps
    /// the report back.
    @Test("a thread the run starts, and a thread that thread starts, are waited for past the continuation's grace")
    func runThreadsAreWaitedFor() async throws {
      let execution = try await DeterministicScheduler.run(configuration: Self.patient) {
        await withCheckedContinuation { continuation in
          Thread.detach {
            Thread.detach(after: .milliseconds(600)) { continuation.resume() }
          }
        }
        return 42
      }
      #expect(execution.value == 42)
    }

    /// The thread ends at once, and the queue resumes the continuation later than the grace a
    /// continuation gets where hand-offs are not seen: only the hand-off, noted on the thread,
    /// keeps the report back.
    @Test("a continuation a thread of the run hands to a dispatch queue before it ends is waited for")
    func dispatchHandOffByARunThreadIsWaitedFor() async throws {
      // The queue's threads exist before the run, so none of them is the run's.
      await withCheckedContinuation { continuation in DispatchQueue.global().async { continuation.resume() } }
      let execution = try await DeterministicScheduler.run(configuration: Self.patient) {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
          Thread.detach {
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(400)) { continuation.resume(returning: 42) }
          }
        }
      }
      #expect(execution.value == 42)
    }

    /// Nothing outside the run can act: no thread of the run, no hand-off to Dispatch, nothing
    /// that came back. The report takes a glance of 2 ms; a grace of 250 ms would be a floor under
    /// every run that no load can lower, and load only raises a time, so the bound is on the
    /// fastest of up to forty runs, which stop once one is under it.
    @Test("a deadlock on continuations no thread of the run can resume is reported at once, with no grace")
    func continuationDeadlockIsReportedAtOnce() async throws {
      let clock = ContinuousClock()
      var fastest = Duration.seconds(Int64.max)
      for _ in 0..<40 where fastest >= .milliseconds(200) {
        let start = clock.now
        let error = try await #require(throws: SchedulerError.self) {
          try await DeterministicScheduler.run(configuration: Self.patient) {
            let parked = Parked()
            let a = Task.effect(name: "A") { await withCheckedContinuation { parked.keep($0) } }
            let b = Task.effect(name: "B") { await withCheckedContinuation { parked.keep($0) } }
            _ = await (a.value, b.value)
          }
        }
        fastest = min(fastest, clock.now - start)
        guard case .deadlock = error.reason else {
          Issue.record("expected a deadlock, got \(error.summary)")
          return
        }
      }
      #expect(fastest < .milliseconds(200), "fastest time to the report \(fastest)")
    }
  #endif

  /// Dispatch is warmed up first, so that its threads are older than the run.
  @Test("a root a dispatch queue resumes 10 ms later is waited for, with reportsDeadlocksAtOnce on, and the resumption comes from outside")
  func dispatchAfterIsWaitedFor() async throws {
    // The queue's threads exist before the run, so no census of the run's threads can see them.
    for _ in 0..<3 {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { continuation.resume() }
      }
    }
    let execution = try await DeterministicScheduler.run(configuration: Self.patient) {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { continuation.resume() }
      }
      return 1
    }
    #expect(execution.value == 1)
    #expect(!execution.trace.stepsWithWorkFromOutside.isEmpty)
  }

  @Test("with reportsDeadlocksAtOnce off, continuations that threads begun before the run resume later are waited for")
  func threadsFromBeforeTheRun() async throws {
    await withCheckedContinuation { continuation in DispatchQueue.global().async { continuation.resume() } }
    let worker = Worker()
    var configuration = Self.patient
    configuration.reportsDeadlocksAtOnce = false
    let execution = try await DeterministicScheduler.run(configuration: configuration) {
      let fromWorker = await withCheckedContinuation { continuation in
        worker.run(after: .milliseconds(50)) { continuation.resume(returning: 40) }
      }
      let fromQueue = await withCheckedContinuation { continuation in
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { continuation.resume(returning: 2) }
      }
      return fromWorker + fromQueue
    }
    #expect(execution.value == 42)
  }

  @Test("a task awaiting another that waits for a thread of its own is waited for, not reported")
  func waitBehindAnotherThread() async throws {
    let execution = try await DeterministicScheduler.run(configuration: Self.patient) {
      let worker = Task.effect(name: "worker") {
        await withCheckedContinuation { continuation in
          Thread.detach(after: .milliseconds(50)) { continuation.resume(returning: 42) }
        }
      }
      return await worker.value
    }
    #expect(execution.value == 42)
  }

  @Test("a task reading an AsyncStream that another thread feeds later is waited for, not reported")
  func streamFedByAnotherThread() async throws {
    let execution = try await DeterministicScheduler.run(configuration: Self.patient) {
      let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
      let reader = Task.effect(name: "reader") {
        var sum = 0
        for await number in stream { sum += number }
        return sum
      }
      Thread.detach(after: .milliseconds(50)) {
        continuation.yield(40)
        continuation.yield(2)
        continuation.finish()
      }
      return await reader.value
    }
    #expect(execution.value == 42)
  }
}

/// A thread started at once, older than the runs that hand it work, as a program's workers can
/// be: it runs one piece of work, when it is handed over, after a delay.
private final class Worker: Sendable {
  private let handedOver = DispatchSemaphore(value: 0)
  private let work = Mutex<(delay: Duration, body: @Sendable () -> Void)?>(nil)

  init() {
    Thread { [self] in
      handedOver.wait()
      guard let (delay, body) = work.withLock({ $0 }) else { return }
      Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
      body()
    }.start()
  }

  func run(after delay: Duration, _ body: @escaping @Sendable () -> Void) {
    work.withLock { $0 = (delay, body) }
    handedOver.signal()
  }
}

/// Lets task A await task B, which is created after A.
private final class Handles: @unchecked Sendable {
  var b: Task<Void, Never>?

  func waitForB() async {
    // B exists by the time A first runs: the root creates both before it suspends.
    await b?.value
  }
}

/// Continuations kept, and never resumed.
private final class Parked: Sendable {
  private let continuations = Mutex<[CheckedContinuation<Void, Never>]>([])

  func keep(_ continuation: CheckedContinuation<Void, Never>) {
    continuations.withLock { $0.append(continuation) }
  }
}
