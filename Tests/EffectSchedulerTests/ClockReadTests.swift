import EffectScheduler
import Foundation
import Testing

#if os(Linux)
  @Suite("ContinuousClock.now and SuspendingClock.now follow the virtual clock under a scheduler")
  struct ClockReadTests {
    @Test("both clocks move by exactly the slept durations, and not at all between sleeps")
    func clocksMoveWithSleeps() async throws {
      let execution = try await DeterministicScheduler.run {
        let continuous = ContinuousClock.now
        let suspending = SuspendingClock.now
        // Real time passes here; the virtual clock does not.
        usleep(20_000)
        let idle = [continuous.duration(to: .now), suspending.duration(to: .now)]
        try await Task.sleep(for: .milliseconds(1500))
        try await SuspendingClock().sleep(for: .seconds(3))
        return idle + [continuous.duration(to: ContinuousClock().now), suspending.duration(to: SuspendingClock().now)]
      }
      #expect(execution.value == [.zero, .zero, .milliseconds(4500), .milliseconds(4500)])
    }

    @Test("a plain Task, a Task.detached and main-actor code read the virtual clock too")
    func everyKindOfTaskReadsVirtualTime() async throws {
      let execution = try await DeterministicScheduler.run {
        let start = ContinuousClock.now
        let plain = Task {
          try? await Task.sleep(for: .seconds(10))
          return start.duration(to: .now)
        }
        let onMainActor = Task { @MainActor in
          try? await Task.sleep(for: .seconds(20))
          return start.duration(to: .now)
        }
        let detached = Task.detached {
          try? await Task.sleep(for: .seconds(30))
          return start.duration(to: .now)
        }
        return [await plain.value, await onMainActor.value, await detached.value]
      }
      #expect(execution.value == [.seconds(10), .seconds(20), .seconds(30)])
    }

    @Test("a deadline read from the clock comes back exactly, however odd the duration")
    func deadlinesAreExact() async throws {
      let odd = Duration.nanoseconds(1_234_567)
      let execution = try await DeterministicScheduler.run {
        let start = ContinuousClock.now
        try await Task.sleep(until: start + odd, clock: .continuous)
        try await ContinuousClock().sleep(until: start + odd * 2)
        return start.duration(to: .now)
      }
      #expect(execution.trace.clockAdvances.map(\.time) == [odd, odd * 2])
      #expect(execution.value == odd * 2)
    }

    @Test("a thread the program starts, and code outside any scheduler, read real time")
    func otherThreadsReadRealTime() async throws {
      let before = ContinuousClock.now
      let execution = try await DeterministicScheduler.run {
        try await Task.sleep(for: .seconds(3600))
        let virtual = ContinuousClock.now
        let real = await withCheckedContinuation { continuation in
          Thread.detachNewThread { continuation.resume(returning: ContinuousClock.now) }
        }
        return (virtual, real)
      }
      let after = ContinuousClock.now
      let (virtual, real) = execution.value
      #expect(before.duration(to: virtual) >= .seconds(3600))
      #expect(before <= real && real <= after)
      #expect(after.duration(to: .now) < .seconds(60))
    }
  }
#endif
