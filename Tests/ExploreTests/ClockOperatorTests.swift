import BugCatalogue
import EffectScheduler
import Explore
import Testing

#if os(Linux)
  @Suite("Operators that read the default clock pass every schedule, unchanged")
  struct ClockOperatorTests {
    static let configuration = ExploreConfiguration(progressInterval: nil)

    /// Timers may fire while jobs are ready, once a run.
    static let earlyTimers: ExploreConfiguration = {
      var configuration = Self.configuration
      configuration.scheduler.earlyTimerFirings = 1
      return configuration
    }()

    @Test(
      "a throttle lets through the elements 250 ms apart: 0, 3 and 6 of one every 100 ms; with early timers too, where runs in which the delayed consumer reads the clock are cut",
      arguments: [false, true])
    func throttle(earlyTimers: Bool) async throws {
      let summary = try await explore(.exhaustive, configuration: earlyTimers ? Self.earlyTimers : Self.configuration) {
        let elements = (0..<8).map { ($0, Duration.milliseconds(100 * $0)) }
        let passed = await throttled(timedStream(elements, finishingAt: .seconds(1)), for: .milliseconds(250))
        try check(passed == [0, 3, 6], "the throttle let through \(passed)")
      }
      #expect(summary.claimsEverySchedule(assuming: [.timedWorkRanOnTime]))
    }

    @Test("a timer ticks exactly every second of virtual time")
    func timer() async throws {
      let summary = try await explore(.exhaustive, configuration: Self.configuration) {
        let start = ContinuousClock.now
        var ticks: [Duration] = []
        for await tick in TimerTicks(interval: .seconds(1)) {
          ticks.append(start.duration(to: tick))
          if ticks.count == 3 { break }
        }
        try check(ticks == [.seconds(1), .seconds(2), .seconds(3)], "the timer ticked at \(ticks)")
      }
      #expect(summary.exploredEverySchedule)
    }

    @Test("a debounce lets through the last element of each burst, at its deadline")
    func debounce() async throws {
      let summary = try await explore(.exhaustive, configuration: Self.configuration) {
        let start = ContinuousClock.now
        let upstream = timedStream([(1, .zero), (2, .milliseconds(100)), (3, .milliseconds(500))], finishingAt: .milliseconds(600))
        var seen: [String] = []
        for await element in debounced(upstream, for: .milliseconds(300)) {
          seen.append("\(element) at \(start.duration(to: .now))")
        }
        try check(seen == ["2 at 0.4 seconds", "3 at 0.8 seconds"], "the debounce let through \(seen)")
      }
      #expect(summary.claimsEverySchedule(assuming: [.timedWorkRanOnTime]))
    }

    @Test("a timeout measured on the suspending clock sees exactly the time the work slept")
    func elapsedTime() async throws {
      let summary = try await explore(.exhaustive, configuration: Self.configuration) {
        let clock = SuspendingClock()
        let elapsed = try await clock.measure {
          async let first: Void = Task.sleep(for: .milliseconds(700))
          async let second: Void = clock.sleep(for: .milliseconds(200))
          _ = try await (first, second)
        }
        try check(elapsed == .milliseconds(700), "the work took \(elapsed)")
      }
      #expect(summary.claimsEverySchedule(assuming: [.timedWorkRanOnTime]))
    }
  }
#endif
