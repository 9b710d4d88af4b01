import BugCatalogue
import Dispatch
import Foundation
import EffectScheduler
import Explore
import InstrumentedBugCatalogue

/// What instrumentation (`-Xfrontend -sanitize=thread`) costs: plain memory work with no scheduler,
/// built plain and built instrumented; and, per schedule, `.exhaustive` on each fixed program of
/// the catalogue, built plain (its runs not listening) and built instrumented.
func benchmarkInstrumentation() async {
  // The instrumented programs' runs listen; the other parts measure runs that do not.
  Instrumentation.listens = true
  defer { Instrumentation.listens = false }
  if let only = ProcessInfo.processInfo.environment["INSTRUMENTATION_ONLY"] {
    // One instrumented program alone, for investigation: the bugs whose names start so.
    for bug in InstrumentedBugCatalogue.ClassicBug.all where bug.name.hasPrefix(only) {
      print(bug.name, await costPerSchedule(bug.fixed, configuration: bug.configuration).map { "\($0 * 1e6) µs a schedule" } ?? "failed")
    }
    return
  }
  let size = 300_000
  var checksum = 0
  let plain = await best { checksum &+= BugCatalogue.memoryWork(size: size) }
  let instrumented = await best { checksum &+= InstrumentedBugCatalogue.memoryWork(size: size) }
  precondition(checksum != 0)
  print("\nInstrumented code outside any run (memory work on \(size) elements, best of \(rounds)):")
  print("  plain: \(format(plain * 1000)) ms, instrumented: \(format(instrumented * 1000)) ms")
  print("  ratio (instrumented / plain): \(format(instrumented / plain))  (target <= 1.5)")

  print("\nPer schedule, .exhaustive on the catalogue's fixed programs (at most \(schedulesEach) schedules each, best of 3):")
  print("| program | plain µs/schedule | instrumented µs/schedule | ratio |")
  print("|---|--:|--:|--:|")
  var ratios: [Double] = []
  // Each kind by itself: the plain programs first, their runs not listening, then the
  // instrumented ones.
  Instrumentation.listens = false
  var plainCosts: [Double?] = []
  for bug in BugCatalogue.ClassicBug.all { plainCosts.append(await costPerSchedule(bug.fixed, configuration: bug.configuration)) }
  Instrumentation.listens = true
  for (index, bug) in InstrumentedBugCatalogue.ClassicBug.all.enumerated() {
    let instrumentedCost = await costPerSchedule(bug.fixed, configuration: bug.configuration)
    guard let plainCost = plainCosts[index], let instrumentedCost else {
      print("| \(bug.name) | \(plainCosts[index] == nil ? "failed" : "") | \(instrumentedCost == nil ? "failed" : "") | |")
      continue
    }
    ratios.append(instrumentedCost / plainCost)
    print("| \(bug.name) | \(format(plainCost * 1e6)) | \(format(instrumentedCost * 1e6)) | \(format(instrumentedCost / plainCost)) |")
  }
  let geometricMean = ratios.isEmpty ? 0 : ratios.map { log($0) }.reduce(0, +) / Double(ratios.count)
  print("  geometric mean of the ratios: \(format(exp(geometricMean)))  (target <= 2)")
  await provePhilosophers()
}

/// The fixed three philosophers built instrumented, with no assumption: `.reduced()` alone, and
/// `.default` within its default budget; and the naive table's deadlock under `.default`.
private func provePhilosophers() async {
  let bug = InstrumentedBugCatalogue.ClassicBug.diningPhilosophers3
  print("\nThe three philosophers built instrumented, no assumption:")
  for (name, strategy) in [("reduced", ExplorationStrategy.reduced()), ("default", .default)] {
    let start = DispatchTime.now().uptimeNanoseconds
    let summary = try? await explore(strategy, configuration: ExploreConfiguration(progressInterval: nil), bug.fixed)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let claim = summary.map { $0.exploredEverySchedule ? "every schedule explored" : "not proved" } ?? "failed"
    print("  fixed, .\(name): \(summary?.schedules ?? 0) schedules in \(format(seconds)) s, \(claim)")
  }
  let start = DispatchTime.now().uptimeNanoseconds
  let found: Bool
  do {
    _ = try await explore(.default, configuration: bug.configuration, bug.buggy)
    found = false
  } catch {
    found = true
  }
  let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  print("  naive, .default: \(found ? "deadlock found" : "not found") in \(format(seconds)) s")
}

private let schedulesEach = 2_000

/// Seconds per schedule of `.exhaustive` on `program`, best of 3; `nil` if the search failed.
private func costPerSchedule(_ program: @escaping @Sendable () async throws -> Void, configuration: ExploreConfiguration) async -> Double? {
  var configuration = configuration
  configuration.checksDeterminism = false
  var fastest = Double.infinity
  for _ in 0..<3 {
    let start = DispatchTime.now().uptimeNanoseconds
    let summary: ExplorationSummary
    do {
      summary = try await explore(.exhaustive(maxSchedules: schedulesEach), configuration: configuration, program)
    } catch {
      print("  (failed: \(String("\(error)".prefix(300))))")
      return nil
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    fastest = min(fastest, seconds / Double(max(summary.schedules, 1)))
  }
  return fastest
}
