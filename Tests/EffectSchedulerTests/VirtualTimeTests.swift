import EffectScheduler
import Effects
import Foundation
import Testing

/// The virtual time of the run under way.
private var virtualTime: Duration { DeterministicScheduler.current?.virtualTime ?? .seconds(-1) }

@Suite("Virtual time")
struct VirtualTimeTests {
  @Test("a five-minute sleep takes no real time, and the run reports 300 s of virtual time")
  func longSleepIsInstant() async throws {
    let started = ContinuousClock.now
    let execution = try await DeterministicScheduler.run {
      try await Task.sleep(for: .seconds(300))
      return virtualTime
    }
    #expect(started.duration(to: .now) < .seconds(60))  // far under 300 s, even with the suite's explorations on both cores
    #expect(execution.value == .seconds(300))
    #expect(execution.trace.clockAdvances == [ClockAdvance(step: 1, time: .seconds(300))])
    #expect(execution.trace.time(atStep: 0) == .zero)
    #expect(execution.trace.time(atStep: 1) == .seconds(300))
  }

  @Test("two tasks sleeping the same duration wake at the same instant, in either order depending on the seed")
  func equalSleepsWakeInEitherOrder() async throws {
    var orders: Set<[String]> = []
    for seed: UInt64 in 0..<20 {
      let execution = try await DeterministicScheduler.run(strategy: .random(seed: seed)) {
        let log = Log()
        let a = Task.effect(name: "A") { try? await Task.sleep(for: .seconds(1)); await log.append("A") }
        let b = Task.effect(name: "B") { try? await Task.sleep(for: .seconds(1)); await log.append("B") }
        await a.value
        await b.value
        return await log.entries
      }
      // One move of the clock wakes both.
      #expect(execution.trace.clockAdvances.map(\.time) == [.seconds(1)])
      orders.insert(execution.value)
    }
    #expect(orders == [["A", "B"], ["B", "A"]])
  }

  @Test("cancelling a sleeping task wakes it at once with CancellationError, and the clock does not move for it")
  func cancellationWakesSleeper() async throws {
    let execution = try await DeterministicScheduler.run {
      let sleeper = Task.effect(name: "sleeper") { () -> (String, Duration) in
        do {
          try await Task.sleep(for: .seconds(60))
          return ("woke", virtualTime)
        } catch {
          return (String(describing: type(of: error)), virtualTime)
        }
      }
      let napper = Task.effect(name: "napper") { try? await Task.sleep(for: .seconds(5)) }
      await Task.yield()  // under FIFO, both are asleep after this
      sleeper.cancel()
      let (outcome, wokeAt) = await sleeper.value
      await napper.value
      return (outcome, wokeAt, virtualTime)
    }
    #expect(execution.value == ("CancellationError", .zero, .seconds(5)))
    // Only the napper's five seconds passed; the sixty of the cancelled sleep never did.
    #expect(execution.trace.clockAdvances.map(\.time) == [.seconds(5)])
    let sleeper = try #require(execution.trace.tasks.first { $0.name == "sleeper" }).id
    let events = execution.trace.events.filter { $0.task == sleeper }
    let startedAt = try #require(events.first { $0.kind == .started }).step
    let cancelledAt = try #require(events.first { $0.kind == .cancelled }).step
    #expect(startedAt < cancelledAt, "it was asleep when cancelled")
    #expect(execution.trace.time(atStep: cancelledAt) == .zero)
  }

  @Test("Task.sleep(nanoseconds:), Task.sleep(until:clock:) and the clocks' own sleep all wait on the virtual clock")
  func everySleepIsVirtual() async throws {
    let started = ContinuousClock.now
    let execution = try await DeterministicScheduler.run {
      var times: [Duration] = []
      try await Task.sleep(nanoseconds: 20_000_000_000)
      times.append(virtualTime)
      try await Task.sleep(until: .now + .seconds(30), clock: .continuous)
      times.append(virtualTime)
      try await Task.sleep(until: .now + .seconds(40), clock: .suspending)
      times.append(virtualTime)
      try await SuspendingClock().sleep(for: .seconds(50))
      times.append(virtualTime)
      try await ContinuousClock().sleep(for: .milliseconds(2_500))
      times.append(virtualTime)
      return times
    }
    // Real sleeps would take 142.5 s; a loaded machine has been seen to take 12.6 s over the
    // virtual ones, so the bound leaves room for that and still tells the two apart.
    #expect(started.duration(to: .now) < .seconds(60))
    let expected: [Duration] = [.seconds(20), .seconds(50), .seconds(90), .seconds(140), .milliseconds(142_500)]
    #expect(execution.value == expected)
    #expect(execution.trace.clockAdvances.map(\.time) == expected)
    #expect(execution.trace.clockAdvances.map(\.step) == [1, 2, 3, 4, 5])
  }

  @Test("the trace table has a time column only when something slept")
  func timeColumn() async throws {
    let awake = try await DeterministicScheduler.run { await Task.yield() }
    let asleep = try await DeterministicScheduler.run { try await Task.sleep(for: .milliseconds(1500)) }
    #expect(awake.trace.clockAdvances.isEmpty)
    #expect(awake.trace.table.split(separator: "\n").first == "step | #0 root")
    let lines = asleep.trace.table.split(separator: "\n").map(String.init)
    #expect(lines.first == "step | time | #0 root")
    #expect(lines.dropFirst().map { $0.split(separator: "|")[1].trimmingCharacters(in: .whitespaces) } == ["0", "1.5s"])
  }

  @Test("SchedulerClock().now moves by exactly the slept duration under a scheduler")
  func schedulerClockUnderScheduler() async throws {
    let execution = try await DeterministicScheduler.run {
      let clock = SchedulerClock()
      let start = clock.now
      try await Task.sleep(for: .milliseconds(1500))
      let afterTaskSleep = start.duration(to: clock.now)
      try await clock.sleep(for: .seconds(7))
      let afterClockSleep = start.duration(to: clock.now)
      return [afterTaskSleep, afterClockSleep]
    }
    #expect(execution.value == [.milliseconds(1500), .milliseconds(8500)])
    #expect(execution.trace.clockAdvances.map(\.time) == [.milliseconds(1500), .milliseconds(8500)])
  }

  @Test("sleeps in a plain Task, a Task.detached and main-actor code wait on the virtual clock too")
  func uncontrolledKindsSleepVirtually() async throws {
    let started = ContinuousClock.now
    let execution = try await DeterministicScheduler.run {
      let plain = Task { try? await Task.sleep(for: .seconds(10)) }
      let onMainActor = Task { @MainActor in try? await Task.sleep(for: .seconds(20)) }
      let detached = Task.detached { try? await Task.sleep(for: .seconds(100)) }
      _ = await (plain.value, onMainActor.value, detached.value)
      return virtualTime
    }
    #expect(started.duration(to: .now) < .seconds(60))  // far under 100 s, even with the suite's explorations on both cores
    #expect(execution.value == .seconds(100))
    #expect(execution.trace.clockAdvances.map(\.time) == [.seconds(10), .seconds(20), .seconds(100)])
    #expect(execution.trace.stepsWithWorkFromOutside.isEmpty)
  }

  @Test("SchedulerClock().now in a Task.detached under a scheduler moves with its virtual sleep")
  func schedulerClockInDetachedTask() async throws {
    let execution = try await DeterministicScheduler.run {
      await Task.detached {
        let clock = SchedulerClock()
        let start = clock.now
        try? await Task.sleep(for: .seconds(100))
        return start.duration(to: clock.now)
      }.value
    }
    #expect(execution.trace.clockAdvances.map(\.time) == [.seconds(100)])
    #expect(execution.value == .seconds(100))
  }

  @Test("outside any scheduler, SchedulerClock tells and sleeps real time")
  func schedulerClockOutside() async throws {
    let clock = SchedulerClock()
    let before = ContinuousClock.now
    let now = clock.now
    let after = ContinuousClock.now
    #expect(before <= now && now <= after)
    try await clock.sleep(for: .milliseconds(30))
    #expect(now.duration(to: ContinuousClock.now) >= .milliseconds(30))
    #expect(before.duration(to: clock.now) >= .milliseconds(30))
  }
}
