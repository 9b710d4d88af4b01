import Dispatch
import EffectScheduler
import Explore
import Foundation

/// One run's cost against its length: a run of many steps should cost the same per step as a
/// short one, whatever the number of tasks it starts, and a run stopped at the step cap should be
/// reported within memory that grows with its steps, not with its steps times its tasks.
enum LongRuns {
  /// Starts `tasks` short-lived tasks one after another, awaiting each: every task sleeps a
  /// moment, so a run takes about four steps a task.
  @Sendable static func oneAtATime(_ tasks: Int) async {
    for _ in 0..<tasks {
      let task = Task { try? await Task.sleep(for: .milliseconds(1)) }
      await task.value
    }
  }

  /// Starts `tasks` short-lived tasks, then awaits them all.
  @Sendable static func allThenAwait(_ tasks: Int) async {
    let started = (0..<tasks).map { _ in Task { try? await Task.sleep(for: .milliseconds(1)) } }
    for task in started { await task.value }
  }

  /// Starts `tasks` tasks that each wait at a gate, a continuation an actor keeps, and opens it
  /// once all wait: thousands of tasks live, few ready at once.
  @Sendable static func waitAtGate(_ tasks: Int) async {
    let gate = Gate(expected: tasks)
    let started = (0..<tasks).map { _ in Task { await gate.wait() } }
    await gate.allWaiting()
    await gate.open()
    for task in started { await task.value }
  }

  /// ``waitAtGate(_:)`` with the tasks started one at a time, a yield between: thousands of tasks
  /// live, never more than a few ready.
  @Sendable static func waitAtGateOneByOne(_ tasks: Int) async {
    let gate = Gate(expected: tasks)
    var started: [Task<Void, Never>] = []
    for _ in 0..<tasks {
      started.append(Task { await gate.wait() })
      await Task.yield()
    }
    await gate.allWaiting()
    await gate.open()
    for task in started { await task.value }
  }

  /// Tasks waiting until the gate opens, and the one waiting until they all wait.
  actor Gate {
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var whenAllWait: CheckedContinuation<Void, Never>?
    private let expected: Int

    init(expected: Int) { self.expected = expected }

    func wait() async {
      await withCheckedContinuation { waiter in
        waiters.append(waiter)
        if waiters.count == expected { whenAllWait?.resume() }
      }
    }

    func allWaiting() async {
      guard waiters.count < expected else { return }
      await withCheckedContinuation { whenAllWait = $0 }
    }

    func open() {
      for waiter in waiters { waiter.resume() }
      waiters.removeAll()
    }
  }

  /// A connection manager's retry loop waiting for a cancellation that never comes: every round
  /// starts a timer task and awaits it. It never ends, so a run reaches the step cap.
  @Sendable static func retryForever() async {
    while true {
      let timer = Task { try? await Task.sleep(for: .seconds(1)) }
      await timer.value
    }
  }

  /// The most memory the process has had resident so far, in MiB, where the platform says.
  static func peakResidentMiB() -> Int? {
    #if os(Linux)
      guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
      else { return nil }
      return kilobytes / 1024
    #else
      return nil
    #endif
  }

  /// The steps one first-in-first-out run of `program` takes.
  static func steps(of program: @escaping @Sendable () async -> Void) async -> Int {
    (try? await DeterministicScheduler.run(operation: program).trace.steps) ?? 0
  }

  /// Seconds for one `explore` of `program` with `strategy`, in real time and in the process's
  /// CPU time (which a machine shared with other work inflates less), and whether it failed.
  static func time(
    _ strategy: ExplorationStrategy, maxSteps: Int? = nil, _ program: @escaping @Sendable () async -> Void
  ) async -> (seconds: Double, failure: (any Error)?, cpuSeconds: Double, summary: ExplorationSummary?) {
    var configuration = ExploreConfiguration(progressInterval: nil)
    if let maxSteps { configuration.scheduler.maxSteps = maxSteps }
    let start = DispatchTime.now().uptimeNanoseconds
    let cpuStart = processCPUSeconds()
    var failure: (any Error)?
    var summary: ExplorationSummary?
    do { summary = try await explore(strategy, configuration: configuration, program) } catch { failure = error }
    return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, failure, processCPUSeconds() - cpuStart, summary)
  }

  /// The CPU time the process has used so far, every thread's, in seconds.
  static func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// The strategies a single run of a program is checked under, each running it once (the
  /// default portfolio, once a part), by name.
  static let oneScheduleEach: [(name: String, strategy: ExplorationStrategy)] = [
    (".exhaustive(maxSchedules: 1)", .exhaustive(maxSchedules: 1)), (".reduced(maxSchedules: 1)", .reduced(maxSchedules: 1)),
    (".preemptionBounded(maxSchedules: 1)", .preemptionBounded(maxSchedules: 1)), (".random(schedules: 1)", .random(schedules: 1)),
    (".pct(schedules: 1)", .pct(schedules: 1)), (".default", .default),
  ]

  /// Prints the cost per step of runs of about 1,000, 10,000 and 100,000 steps: tasks started one
  /// at a time, run to their end once, and the never-ending retry loop stopped at the step cap
  /// and reported under the default portfolio; then 8,000 tasks one at a time, and 8,000 all
  /// started before any is awaited, under each strategy; 1,000 to 8,000 tasks all started before
  /// any is awaited, and as many waiting on one actor.
  static func benchmark() async {
    print("\nOne long run's cost per step (best of \(rounds); flat from 1,000 to 100,000 steps is linear):")
    // Three steps a task; `explore` makes the search's one run: a search that stops at one claims
    // a sample, so the determinism check replays nothing.
    for tasks in [333, 3_333, 33_333] {
      let steps = await steps { await oneAtATime(tasks) }
      var seconds = Double.infinity
      for _ in 0..<rounds {
        seconds = min(seconds, await time(.exhaustive(maxSchedules: 1)) { await oneAtATime(tasks) }.seconds)
      }
      print(
        "  \(tasks) tasks one at a time, .exhaustive(maxSchedules: 1), a run of \(steps) steps: "
          + "\(format(seconds * 1e3)) ms, \(format(seconds / Double(steps) * 1e6)) µs a step")
    }
    await onceUnderEachStrategy("8000 tasks one at a time") { await oneAtATime(8_000) }
    // The default portfolio would spend its whole budget on this one's many schedules.
    await onceUnderEachStrategy("8000 tasks started, then awaited", strategies: oneScheduleEach.filter { $0.name != ".default" }) {
      await allThenAwait(8_000)
    }
    // All started before any is awaited: thousands of tasks live, and timers due, at once.
    for tasks in [1_000, 2_000, 4_000, 8_000] {
      let steps = await steps { await allThenAwait(tasks) }
      var best = (seconds: Double.infinity, cpuSeconds: Double.infinity)
      for _ in 0..<(tasks > 2_000 ? 1 : rounds) {
        let timed = await time(.exhaustive(maxSchedules: 1)) { await allThenAwait(tasks) }
        best = (min(best.seconds, timed.seconds), min(best.cpuSeconds, timed.cpuSeconds))
      }
      print(
        "  \(tasks) tasks started, then awaited, .exhaustive(maxSchedules: 1), a run of \(steps) steps: "
          + "\(format(best.seconds * 1e3)) ms, CPU \(format(best.cpuSeconds * 1e3)) ms, "
          + "\(format(best.cpuSeconds / Double(steps) * 1e6)) µs CPU a step"
          + (peakResidentMiB().map { ", peak resident \($0) MiB so far" } ?? ""))
    }
    // Thousands of tasks queued on one actor at once: each hand-off reads the actor's queue.
    for tasks in [1_000, 2_000, 4_000, 8_000] {
      let steps = await steps { await waitAtGate(tasks) }
      let timed = await time(.exhaustive(maxSchedules: 1)) { await waitAtGate(tasks) }
      print(
        "  \(tasks) tasks waiting at a gate one actor keeps, .exhaustive(maxSchedules: 1), a run of \(steps) steps: "
          + "\(format(timed.seconds * 1e3)) ms, CPU \(format(timed.cpuSeconds * 1e3)) ms, \(format(timed.seconds / Double(steps) * 1e6)) µs a step")
    }
    for maxSteps in [1_000, 10_000, 100_000] {
      var seconds = Double.infinity
      var reported = true
      for _ in 0..<rounds {
        let (taken, failure, _, _) = await time(.default, maxSteps: maxSteps) { await retryForever() }
        seconds = min(seconds, taken)
        reported = reported && failure.map { "\($0)".contains("livelock") } ?? false
      }
      print(
        "  retry loop to maxSteps \(maxSteps) under .default, reported\(reported ? "" : " (NOT as a livelock)"): "
          + "\(format(seconds * 1e3)) ms, \(format(seconds / Double(maxSteps) * 1e6)) µs a step"
          + (peakResidentMiB().map { ", peak resident \($0) MiB so far" } ?? ""))
    }
  }

  /// Prints the best time of one schedule of `program` under each of `strategies`.
  static func onceUnderEachStrategy(
    _ name: String, strategies: [(name: String, strategy: ExplorationStrategy)] = oneScheduleEach, _ program: @escaping @Sendable () async -> Void
  ) async {
    print("  \(name), once under each strategy (best of \(rounds), real and CPU time; the target is 0.2 s):")
    for (strategyName, strategy) in strategies {
      var best = (seconds: Double.infinity, cpuSeconds: Double.infinity)
      for _ in 0..<rounds {
        let timed = await time(strategy, program)
        best = (min(best.seconds, timed.seconds), min(best.cpuSeconds, timed.cpuSeconds))
      }
      print("    \(strategyName): \(format(best.seconds * 1e3)) ms, CPU \(format(best.cpuSeconds * 1e3)) ms")
    }
  }

  /// One exploration picked by environment variables, for profiling and memory measurements:
  /// `LONGRUN_SHAPE` (`sequential`, `all`, `gate`, `gradual`, `retry`), `LONGRUN_TASKS`, `LONGRUN_STRATEGY`
  /// (`exhaustive1`, `reduced1`, `random1`, `pct1`, `bounded1`, `default`) and `LONGRUN_MAXSTEPS`.
  static func probe() async {
    let environment = ProcessInfo.processInfo.environment
    let tasks = environment["LONGRUN_TASKS"].flatMap { Int($0) } ?? 8_000
    let maxSteps = environment["LONGRUN_MAXSTEPS"].flatMap { Int($0) }
    let strategies: [String: ExplorationStrategy] = [
      "exhaustive1": .exhaustive(maxSchedules: 1), "reduced1": .reduced(maxSchedules: 1), "random1": .random(schedules: 1),
      "pct1": .pct(schedules: 1), "bounded1": .preemptionBounded(maxSchedules: 1), "default": .default,
    ]
    let strategyName = environment["LONGRUN_STRATEGY"] ?? "exhaustive1"
    guard let strategy = strategies[strategyName] else { fatalError("no strategy \(strategyName)") }
    let shape = environment["LONGRUN_SHAPE"] ?? "sequential"
    let program: @Sendable () async -> Void =
      switch shape {
      case "all": { await allThenAwait(tasks) }
      case "retry": { await retryForever() }
      case "gate": { await waitAtGate(tasks) }
      case "gradual": { await waitAtGateOneByOne(tasks) }
      default: { await oneAtATime(tasks) }
      }
    let (seconds, failure, cpuSeconds, summary) = await time(strategy, maxSteps: maxSteps, program)
    let firstLine =
      failure.map { "\($0)".split(separator: "\n").prefix(2).joined(separator: " / ") }
      ?? summary.map { "passed, \($0.schedules) schedules, \($0.claim)" } ?? "passed"
    print(
      "\(shape) \(tasks) \(strategyName): \(format(seconds)) s, CPU \(format(cpuSeconds)) s, peak \(peakResidentMiB() ?? -1) MiB; \(firstLine)")
    if environment["LONGRUN_PRINT"] != nil, let failure { print(failure) }
  }
}
