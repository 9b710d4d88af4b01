import EffectScheduler
import Foundation
import Synchronization
import Testing

/// A guest's jobs run on a scheduler's driver thread while it is idle, outside its control. Every
/// wait below is bounded, so a job that never runs fails the test instead of hanging it.
@Suite("GuestExecutor: outside code on a driver thread")
struct GuestExecutorTests {
  @Test("a guest's job runs on the driver thread when it is idle, and what it resumes comes from outside")
  func hostedJobRunsOnDriverThread() async throws {
    let guest = GuestExecutor()
    let threads = Shared<[String: UInt]>([:])
    let execution = try await DeterministicScheduler.run {
      let scheduler = try #require(DeterministicScheduler.current)
      guest.attach(to: scheduler)
      scheduler.whenIdle = { guest.runQueuedJobs() }
      threads.withLock { $0["program"] = currentThread() }
      let answer = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
        Task(executorPreference: guest) {
          threads.withLock { $0["guest"] = currentThread() }
          continuation.resume(returning: 42)
        }
      }
      guest.detach()
      return answer
    }
    #expect(execution.value == 42)
    let seen = threads.withLock { $0 }
    #expect(seen["guest"] != nil && seen["guest"] == seen["program"], "the guest ran on another thread than the program")
    #expect(execution.trace.events.contains { $0.fromOutside }, "the guest's resumption was taken for one of the program's steps")
  }

  @Test("a guest's jobs wait for a host, and run on the shared pool once the host has gone")
  func detachedGuestRunsOnPool() async throws {
    let guest = GuestExecutor()
    let ran = Shared(false)
    Task(executorPreference: guest) { ran.withLock { $0 = true } }
    try await Task.sleep(for: .milliseconds(20))
    #expect(!ran.withLock { $0 }, "a job ran before any host took it or the guest let it go")
    guest.detach()
    for _ in 0..<200 where !ran.withLock({ $0 }) {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(ran.withLock { $0 }, "a job that waited for a host never ran once the host had gone")
  }
}

/// A value tasks and threads share.
private final class Shared<Value: Sendable>: Sendable {
  private let value: Mutex<Value>

  init(_ value: Value) {
    self.value = Mutex(value)
  }

  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    value.withLock { body(&$0) }
  }
}

/// The calling thread, as a number no two live threads share.
private func currentThread() -> UInt {
  #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
  #else
    UInt(pthread_self())
  #endif
}
