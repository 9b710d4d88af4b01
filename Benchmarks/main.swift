// Measures the library against its floors and prints ratios measured in this one run.
//
//   swift run -c release Benchmarks
import Dispatch
import Foundation
import EffectScheduler
import Effects
import Explore

let rounds = 5

/// The best of `rounds` timings of `body`, in seconds.
func best(_ body: () async throws -> Void) async rethrows -> Double {
  var fastest = Double.infinity
  for _ in 0..<rounds {
    let start = DispatchTime.now().uptimeNanoseconds
    try await body()
    fastest = min(fastest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
  }
  return fastest
}

func format(_ value: Double) -> String {
  let scaled = (value * 100).rounded() / 100
  return "\(scaled)"
}

/// Benchmarks named on the command line run alone: `Benchmarks spawn`, `Benchmarks streams`,
/// `Benchmarks handoff`, `Benchmarks catalogue`, `Benchmarks reducedsplit`, `Benchmarks callcost`. `Benchmarks reducedonly`
/// and `Benchmarks exhaustiveonly`, one search of each reduction program for profiling
/// (`BENCHMARK_PROGRAM=3 group` to pick one by the start of its name; `BENCHMARK_LIMIT` for the
/// full search's schedules, 21,670 unless set; `BENCHMARK_REPEAT` to make each search that many
/// times, for more samples), run only when named. `Benchmarks reduction` takes `BENCHMARK_PROGRAM`
/// too, and `BENCHMARK_ROUNDS` for its rounds, 5 unless set. `Benchmarks reductioncatalogue`, the
/// same comparison on the catalogue's fixed programs (`BENCHMARK_ROUNDS`, 3 unless set;
/// `BENCHMARK_PROGRAM` picks bugs by the start of their names; `BENCHMARK_ONLY=reduced` or
/// `exhaustive` times one kind of search alone, for profiling, the exhaustive one stopped at
/// `BENCHMARK_LIMIT` schedules, 100,000 unless set), runs only when named. `BENCHMARK_BUSY=1`
/// runs any of them beside a thread that keeps a core busy (``BusyThreads``). `Benchmarks longruns`
/// prints one long run's cost per step at 1,000, 10,000 and 100,000 steps; `Benchmarks longrun`,
/// run only when named, makes one exploration that `LONGRUN_*` variables pick, for profiling
/// (see ``LongRuns/probe()``). `Benchmarks instrumentation` prints what instrumented code costs
/// outside any run and per schedule (`INSTRUMENTATION_ONLY=check` times the instrumented programs
/// whose names start so alone).
// This process links code built instrumented (the instrumented catalogue), so its runs would
// listen to instrumented code, as a test process of such code does. Every part but the one that
// measures instrumentation measures a process without it: its runs do not listen.
Instrumentation.listens = false
let selected = Set(CommandLine.arguments.dropFirst())
func wanted(_ name: String) -> Bool { selected.isEmpty || selected.contains(name) }
BusyThreads.start(BusyThreads.requested)

// MARK: Task.effect against Task, no scheduler

if wanted("spawn") {
  let spawns = 50_000
  let pairs = 9
  // Spawned from a nonisolated task, so neither kind of task hops to the main actor, and timed
  // in alternating rounds, so both see the same machine; the best round of each counts.
  let (plainTaskSeconds, effectTaskSeconds) = await Task.detached {
    var plain = Double.infinity
    var effect = Double.infinity
    for _ in 0..<pairs {
      var sum = 0
      var start = DispatchTime.now().uptimeNanoseconds
      for index in 0..<spawns { sum &+= await Task.effect { index }.value }
      effect = min(effect, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
      start = DispatchTime.now().uptimeNanoseconds
      for index in 0..<spawns { sum &+= await Task { index }.value }
      plain = min(plain, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
      precondition(sum > 0)
    }
    return (plain, effect)
  }.value
  print("Task.effect vs Task, spawn + await, no scheduler (\(spawns) tasks, best of \(pairs) alternating rounds):")
  print("  Task:        \(Int(Double(spawns) / plainTaskSeconds)) tasks/s")
  print("  Task.effect: \(Int(Double(spawns) / effectTaskSeconds)) tasks/s")
  print("  ratio (time of Task.effect / time of Task): \(format(effectTaskSeconds / plainTaskSeconds))  (target <= 1.05)")
}

// MARK: AsyncStream.effect against AsyncStream, no scheduler

if wanted("streams") { await benchmarkStreams() }

// MARK: withTestHandler hand-offs

if wanted("handoff") { try await benchmarkHandoff() }

// MARK: Schedules to the first failure, classic catalogue

if wanted("catalogue") { await benchmarkCatalogue() }
if wanted("spawncounts") { try await benchmarkSpawnCounts() }
if wanted("linearizability") { await benchmarkLinearizability() }
if wanted("pctrate") {
  print("\nPCT's own runs on a bug of depth 3 (one run a seed):")
  await benchmarkPCTRate()
}

// MARK: Drop-in locks and atomics

if wanted("synchronization") {
  print("")
  await benchmarkSynchronization()
}

// MARK: Deadlock reports

if wanted("deadlock") { await benchmarkDeadlockReport() }

// MARK: Instrumented builds

if wanted("instrumentation") { await benchmarkInstrumentation() }

// MARK: Long runs

if wanted("longruns") { await LongRuns.benchmark() }
if selected.contains("longrun") { await LongRuns.probe() }

// MARK: Controlled jobs against a bare executor loop

/// The floor: a task executor that queues jobs and a loop that drains them, with no strategy,
/// bookkeeping or trace.
final class BareExecutor: TaskExecutor, @unchecked Sendable {
  var queue: [UnownedJob] = []
  var head = 0
  var jobs = 0

  func enqueue(_ job: consuming ExecutorJob) { queue.append(UnownedJob(job)) }

  func drain() {
    let executor = asUnownedTaskExecutor()
    while head < queue.count {
      let job = queue[head]
      head += 1
      jobs += 1
      job.runSynchronously(on: executor)
    }
    queue.removeAll(keepingCapacity: true)
    head = 0
  }
}

/// How many runs a second the bare loop makes of `program`, each a root task on `executor`
/// drained to the end, and how many jobs a run took.
func bareRunsPerSecond(_ runs: Int, _ program: @escaping @Sendable (BareExecutor) async -> Void) async -> (rate: Double, jobsPerRun: Int) {
  let executor = BareExecutor()
  let seconds = await best {
    for _ in 0..<runs {
      Task(executorPreference: executor) { await program(executor) }
      executor.drain()
    }
  }
  return (Double(runs) / seconds, executor.jobs / (runs * rounds))
}

/// The program both loops run: a root task spawning three tasks of three segments each and
/// awaiting them.
@Sendable func threeByThree() async {
  let tasks = (0..<3).map { _ in
    Task.effect {
      await Task.yield()
      await Task.yield()
    }
  }
  for task in tasks { await task.value }
}

if wanted("jobs") {
let schedules = 20_000
let (floorRunsPerSecond, floorJobsPerRun) = await bareRunsPerSecond(schedules) { bare in
  let tasks = (0..<3).map { _ in
    Task(executorPreference: bare) {
      await Task.yield()
      await Task.yield()
    }
  }
  for task in tasks { await task.value }
}

// Each run gets a fresh scheduler, as `DeterministicScheduler.run` does, on a thread of its own,
// as the scheduler's driver threads are.
let (controlledSeconds, controlledJobsPerRun) = await withCheckedContinuation { continuation in
  Thread {
    var fastest = Double.infinity
    var steps = 0
    for _ in 0..<rounds {
      let start = DispatchTime.now().uptimeNanoseconds
      for _ in 0..<schedules {
        var strategy = FIFOStrategy()
        let outcome = DeterministicScheduler.execute(strategy: &strategy, configuration: .init(), operation: threeByThree)
        guard case .success? = outcome.result else { fatalError("the benchmark program failed") }
        steps = outcome.trace.steps
      }
      fastest = min(fastest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    continuation.resume(returning: (fastest, steps))
  }.start()
}
let controlledRunsPerSecond = Double(schedules) / controlledSeconds
print("\nControlled runs vs a bare executor loop, root + 3 tasks x 3 segments (\(schedules) runs, best of \(rounds)):")
print("  bare loop:  \(Int(floorRunsPerSecond)) runs/s (\(floorJobsPerRun) jobs a run, Task.yield trampolines included)")
print("  scheduler:  \(Int(controlledRunsPerSecond)) runs/s (\(controlledJobsPerRun) steps a run; trampolines run between steps)")
print("  ratio (scheduler runs/s / bare runs/s): \(format(controlledRunsPerSecond / floorRunsPerSecond))")
}

// MARK: Exhaustive exploration of 3 tasks x 3 segments against the floor

if wanted("explore") {
  /// Three group children of three segments each: 1680 schedules.
  @Sendable func independentThreeByThree() async {
    await withDiscardingTaskGroup { group in
      for _ in 0..<3 {
        group.addTask {
          await Task.yield()
          await Task.yield()
        }
      }
    }
  }

  // The floor: the same program drained FIFO through the bare executor, once a schedule. The two
  // are timed in alternating rounds, so both see the same machine; the best round of each counts.
  /// Schedules a second of one exhaustive exploration on `searchers` threads.
  func exploreRate(searchers: Int) async throws -> Double {
    var configuration = ExploreConfiguration(progressInterval: nil, searchers: searchers)
    configuration.checksDeterminism = false
    let start = DispatchTime.now().uptimeNanoseconds
    let summary = try await explore(.exhaustive, configuration: configuration) { await independentThreeByThree() }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    precondition(summary.schedules == 1680 && summary.distinctTraces == 1680 && summary.exploredEverySchedule)
    return Double(summary.schedules) / seconds
  }

  // The floor: the same program drained FIFO through the bare executor, once a schedule. All are
  // timed in alternating rounds, so all see the same machine; the best round of each counts.
  let rounds = 9
  var floorRate = 0.0
  var oneThread = 0.0
  var twoThreads = 0.0
  for _ in 0..<rounds {
    floorRate = max(floorRate, await bareRunsPerSecond(5_000) { _ in await independentThreeByThree() }.rate)
    oneThread = max(oneThread, try await exploreRate(searchers: 1))
    twoThreads = max(twoThreads, try await exploreRate(searchers: 2))
  }
  print("\nExhaustive exploration, 3 tasks x 3 segments (1680 schedules, best of \(rounds) alternating rounds):")
  print("  bare loop, same program, one thread:  \(Int(floorRate)) runs/s")
  print("  explore(.exhaustive), one thread:     \(Int(oneThread)) schedules/s, ratio to the floor \(format(oneThread / floorRate))")
  print("  explore(.exhaustive), searchers: 2:   \(Int(twoThreads)) schedules/s, ratio to the floor \(format(twoThreads / floorRate))  (target >= 100000)")
}

// MARK: Memory over many schedules

if wanted("memory") {
  /// The resident set size in MiB, where the platform reports it.
  func residentMiB() -> Double? {
    #if os(Linux)
      guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
        let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
      else { return nil }
      return pages * 4096 / 1_048_576
    #else
      return nil
    #endif
  }

  var configuration = ExploreConfiguration(progressInterval: nil)
  configuration.minimizationBudget = 0
  let program: @Sendable () async throws -> Void = {
    let tasks = (0..<3).map { index in
      Task.effect(name: "worker \(index)") {
        await Task.yield()
        await Task.yield()
      }
    }
    for task in tasks { await task.value }
  }
  print("\nMemory over 100,000 random schedules of 3 tasks x 3 segments:")
  _ = try await explore(.random(schedules: 10_000, seed: 1), configuration: configuration, program)
  let afterTenThousand = residentMiB()
  _ = try await explore(.random(schedules: 90_000, seed: 2), configuration: configuration, program)
  let afterHundredThousand = residentMiB()
  if let afterTenThousand, let afterHundredThousand {
    print("  resident after 10,000 schedules:  \(format(afterTenThousand)) MiB")
    print("  resident after 100,000 schedules: \(format(afterHundredThousand)) MiB")
    print("  growth: \(format(afterHundredThousand - afterTenThousand)) MiB")
  } else {
    print("  (this platform does not report resident memory)")
  }

  // The reduced search keeps its path, the footprints of the options it explored and the pairs
  // it met: its memory must not grow with the schedules it runs either.
  print("\nMemory over 110,000 schedules of the reduced search of 4 dining philosophers (fixed fork order):")
  var reducing = configuration
  reducing.checksDeterminism = false
  _ = try await explore(.reduced(maxSchedules: 10_000), configuration: reducing) { await dinner(seats: 4) }
  let reducedTenThousand = residentMiB()
  _ = try await explore(.reduced(maxSchedules: 100_000), configuration: reducing) { await dinner(seats: 4) }
  let reducedHundredThousand = residentMiB()
  if let reducedTenThousand, let reducedHundredThousand {
    print("  resident after a search of 10,000 schedules:  \(format(reducedTenThousand)) MiB")
    print("  resident after one of 100,000 schedules:      \(format(reducedHundredThousand)) MiB")
    print("  growth: \(format(reducedHundredThousand - reducedTenThousand)) MiB")
  }

  // A timer fired early delays the tasks that were ready; a delayed task that then reads the
  // clock cuts the run (TimingAssumption.swift), whose tasks stay suspended: this measures what
  // they keep.
  print("\nMemory over 110,000 exhaustive schedules of the debounced search (a timer may fire early, so runs are cut):")
  var timed = configuration
  timed.checksDeterminism = false
  _ = try await explore(.exhaustive(maxSchedules: 10_000), configuration: timed) { await debouncedSearchWithActors() }
  let timedTenThousand = residentMiB()
  _ = try await explore(.exhaustive(maxSchedules: 100_000), configuration: timed) { await debouncedSearchWithActors() }
  let timedHundredThousand = residentMiB()
  if let timedTenThousand, let timedHundredThousand {
    print("  resident after a search of 10,000 schedules:  \(format(timedTenThousand)) MiB")
    print("  resident after one of 100,000 schedules:      \(format(timedHundredThousand)) MiB")
    print("  growth: \(format(timedHundredThousand - timedTenThousand)) MiB")
  }
}

// MARK: Plain Task spawns with the runtime hooks installed, no scheduler running

if wanted("hooks") {
  // The hooks cannot be taken out once in, so each side runs in a process of its own: this one
  // starts the two kinds in alternating rounds and keeps the best of each.
  let pairs = 9
  var without = 0.0
  var with = 0.0
  for _ in 0..<pairs {
    without = max(without, plainSpawnRateInChildProcess(installingHooks: false))
    with = max(with, plainSpawnRateInChildProcess(installingHooks: true))
  }
  print("\nPlain Task spawn + await, no scheduler running (\(plainSpawns) tasks a process, best of \(pairs) alternating processes):")
  print("  hooks not installed: \(Int(without)) tasks/s")
  print("  hooks installed:     \(Int(with)) tasks/s")
  print("  ratio (time with hooks / time without): \(format(without / with))  (target <= 1.05)")
}

if let mode = selected.first(where: { $0.hasPrefix("plain-spawn-") }) {
  print(await plainSpawnRate(installingHooks: mode == "plain-spawn-hooked"))
}

// MARK: Exhaustive exploration of a debounced search with a 300 ms Task.sleep

if wanted("debounce") {
  var configuration = ExploreConfiguration(progressInterval: nil)
  configuration.checksDeterminism = false
  var rate = 0.0
  var schedules = 0
  for _ in 0..<rounds {
    let start = DispatchTime.now().uptimeNanoseconds
    let summary = try await explore(.exhaustive, configuration: configuration) { await debouncedSearch() }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    // Every schedule, given that timed work runs on time: timers may fire early only beside
    // untimed work (SchedulerConfiguration.earlyTimerFirings).
    precondition(summary.claim.coversEverySchedule, "\(summary)")
    schedules = summary.schedules
    rate = max(rate, Double(summary.schedules) / seconds)
  }
  print("\nExhaustive exploration of a search debounced with Task.sleep(for: .milliseconds(300)), plain Task {} (\(schedules) schedules, best of \(rounds)):")
  print("  \(Int(rate)) schedules/s  (target >= 10000; in real time each schedule would take at least 0.3 s)")
}

// MARK: Preemption bounding against exhaustive search

if wanted("bounded") {
  var configuration = ExploreConfiguration(progressInterval: nil)
  configuration.checksDeterminism = false
  /// The schedules and seconds of the best of `rounds` explorations of `program` with `strategy`.
  func timed(_ strategy: ExplorationStrategy, _ program: @escaping @Sendable () async -> Void) async throws -> (ExplorationSummary, Double) {
    var best = (summary: ExplorationSummary?.none, seconds: Double.infinity)
    for _ in 0..<rounds {
      let start = DispatchTime.now().uptimeNanoseconds
      let summary = try await explore(strategy, configuration: configuration) { await program() }
      best = (summary, min(best.seconds, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
    }
    return (best.summary!, best.seconds)
  }
  func line(_ name: String, _ result: (ExplorationSummary, Double)) -> String {
    let (summary, seconds) = result
    let covered = summary.exploredEverySchedule || summary.everyScheduleWithPreemptions != nil ? "all" : "stopped after"
    return "  \(name) \(covered) \(summary.schedules) schedules in \(format(seconds * 1000)) ms"
  }
  print("\nPreemption bound 2 vs exhaustive search, group children that each update an actor, yield and update it again (best of \(rounds)):")
  for children in [3, 4] {
    let bounded = try await timed(.preemptionBounded(2)) { await actorUpdates(children: children) }
    // Four children have too many schedules to try them all: the exhaustive search gets ten
    // times as many as the bounded one needed.
    let limit = children == 3 ? nil : bounded.0.schedules * 10
    let exhaustive = try await timed(.exhaustive(maxSchedules: limit)) { await actorUpdates(children: children) }
    print("  \(children) children:")
    print(line("  .preemptionBounded(2):", bounded))
    print(line("  .exhaustive:          ", exhaustive))
  }
  // Where no schedule has more than a few preemptions, the bound costs nothing extra.
  let independent: @Sendable () async -> Void = {
    await withDiscardingTaskGroup { group in
      for _ in 0..<3 { group.addTask { await Task.yield(); await Task.yield() } }
    }
  }
  print("  3 independent children of 3 segments (every schedule within the bound):")
  print(line("  .preemptionBounded(50):", try await timed(.preemptionBounded(50), independent)))
  print(line("  .exhaustive:           ", try await timed(.exhaustive, independent)))
}

// MARK: Partial-order reduction against exhaustive search

if wanted("reduction") {
  var configuration = ExploreConfiguration(progressInterval: nil)
  configuration.checksDeterminism = false
  // The programs' tasks share actors only, so the reduced search may claim every schedule.
  configuration.assumesNoUnseenSharing = true
  print(
    "\nPartial-order reduction (.reduced) vs exhaustive search, schedules to try every one (5 rounds after a warm-up, each a reduced search then an exhaustive one; the fastest of each, and the median of the rounds' ratios):"
  )
  // The first search of a process sets up what every later one shares (the hooks, the lock slots
  // found in the libraries' symbol tables): a warm-up keeps that out of the figures.
  if let (_, first) = reductionPrograms.first {
    _ = try await explore(.reduced(maxSchedules: 100), configuration: configuration) { await first() }
    _ = try await explore(.exhaustive(maxSchedules: 100), configuration: configuration) { await first() }
  }
  // `BENCHMARK_PROGRAM` picks programs by the start of their names, `BENCHMARK_ROUNDS` the rounds.
  let environment = ProcessInfo.processInfo.environment
  let rounds = max(Int(environment["BENCHMARK_ROUNDS"] ?? "") ?? 5, 1)
  for (name, program) in reductionPrograms where environment["BENCHMARK_PROGRAM"].map(name.hasPrefix) ?? true {
    var reducedSeconds = Double.infinity
    var fullSeconds = Double.infinity
    var reduced: ExplorationSummary?
    var full: ExplorationSummary?
    // The machine's speed drifts over seconds: a ratio within one round, whose two searches ran
    // one after the other, is less exposed to it than the ratio of two fastest times.
    var ratios: [Double] = []
    for _ in 0..<rounds {
      var start = DispatchTime.now().uptimeNanoseconds
      reduced = try await explore(.reduced(maxSchedules: 50_000), configuration: configuration) { await program() }
      let reducedRound = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      reducedSeconds = min(reducedSeconds, reducedRound)
      // The full search stops at 20 times the reduced one's schedules: past that the factor is
      // known to be at least 20.
      let limit = reduced!.schedules * 20
      start = DispatchTime.now().uptimeNanoseconds
      full = try await explore(.exhaustive(maxSchedules: limit), configuration: configuration) { await program() }
      let fullRound = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      fullSeconds = min(fullSeconds, fullRound)
      ratios.append((reducedRound / Double(max(reduced!.schedules, 1))) / (fullRound / Double(max(full!.schedules, 1))))
    }
    guard let reduced, let full else { continue }
    let factor =
      switch (reduced.exploredEverySchedule, full.exploredEverySchedule) {
      case (true, true): "\(format(Double(full.schedules) / Double(reduced.schedules)))×"
      case (true, false): "more than 20×"
      case (false, true): "less than \(format(Double(full.schedules) / Double(reduced.schedules)))×"
      case (false, false): "unknown: neither search finished"
      }
    print("  \(name):")
    print("    .reduced:    \(reduced.exploredEverySchedule ? "all" : "stopped after") \(reduced.schedules) schedules in \(format(reducedSeconds * 1000)) ms")
    print("    .exhaustive: \(full.exploredEverySchedule ? "all" : "stopped after") \(full.schedules) schedules in \(format(fullSeconds * 1000)) ms")
    print("    reduction: \(factor)")
    let reducedEach = reducedSeconds / Double(max(reduced.schedules, 1))
    let fullEach = fullSeconds / Double(max(full.schedules, 1))
    print(
      "    per schedule: .reduced \(format(reducedEach * 1e6)) µs, .exhaustive \(format(fullEach * 1e6)) µs, \(format(reducedEach / fullEach))× the cost;"
        + " by round \(format(median(ratios)))× (\(format(ratios.min()!))–\(format(ratios.max()!))×)")
  }
}

if selected.contains("reductioncatalogue") {
  let environment = ProcessInfo.processInfo.environment
  try await benchmarkCatalogueReduction(
    rounds: max(Int(environment["BENCHMARK_ROUNDS"] ?? "") ?? 3, 1), only: environment["BENCHMARK_PROGRAM"],
    searchOnly: environment["BENCHMARK_ONLY"], exhaustiveLimit: Int(environment["BENCHMARK_LIMIT"] ?? "") ?? 100_000)
}

if wanted("philosophers") { try await benchmarkPhilosophersProof() }

// MARK: What an explore call costs beyond its runs

if wanted("callcost") { try await benchmarkCallCost() }

// MARK: The reduced search split among searchers and shards

if wanted("reducedsplit") {
  var configuration = ExploreConfiguration(progressInterval: nil)
  configuration.checksDeterminism = false
  configuration.assumesNoUnseenSharing = true
  print("\nThe reduced search on 1 and 2 searchers, and split into 4 shards (schedules each shard counts):")
  for (name, program) in reductionPrograms {
    var seconds: [Int: Double] = [:]
    var schedules: [Int: Int] = [:]
    for searchers in [1, 2] {
      configuration.searchers = searchers
      let start = DispatchTime.now().uptimeNanoseconds
      let summary = try await explore(.reduced(maxSchedules: 200_000), configuration: configuration) { await program() }
      seconds[searchers] = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      schedules[searchers] = summary.schedules
    }
    configuration.searchers = 1
    var shards: [Int] = []
    for index in 1...4 {
      configuration.shard = Shard(index: index, count: 4)
      shards.append(try await explore(.reduced(maxSchedules: 200_000), configuration: configuration) { await program() }.schedules)
    }
    configuration.shard = nil
    let mean = Double(shards.reduce(0, +)) / Double(shards.count)
    print("  \(name):")
    print("    1 searcher:  \(schedules[1]!) schedules in \(format(seconds[1]! * 1000)) ms")
    print("    2 searchers: \(schedules[2]!) schedules in \(format(seconds[2]! * 1000)) ms, \(format(seconds[1]! / seconds[2]!))× as fast")
    print("    4 shards: \(shards.map(String.init).joined(separator: ", ")) schedules (together \(shards.reduce(0, +)); largest \(format(Double(shards.max()!) / mean))× the mean)")
  }
}

// MARK: One search alone, for profiling

for (name, strategy) in [("reducedonly", "reduced"), ("exhaustiveonly", "exhaustive")] where selected.contains(name) {
  var configuration = ExploreConfiguration(progressInterval: nil)
  configuration.checksDeterminism = false
  configuration.assumesNoUnseenSharing = true
  let environment = ProcessInfo.processInfo.environment
  let only = environment["BENCHMARK_PROGRAM"]
  let limit = Int(environment["BENCHMARK_LIMIT"] ?? "") ?? 21_670
  let repeats = max(Int(environment["BENCHMARK_REPEAT"] ?? "") ?? 1, 1)
  print("\nThe \(strategy) search alone (one run each):")
  for (name, program) in reductionPrograms where only.map(name.hasPrefix) ?? true {
    for _ in 0..<repeats {
      let start = DispatchTime.now().uptimeNanoseconds
      let summary =
        try await strategy == "reduced"
        ? explore(.reduced(maxSchedules: 50_000), configuration: configuration) { await program() }
        : explore(.exhaustive(maxSchedules: limit), configuration: configuration) { await program() }
      print("  \(name): \(summary.schedules) schedules in \(format(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)) ms")
    }
  }
}
