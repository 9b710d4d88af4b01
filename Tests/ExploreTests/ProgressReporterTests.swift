@testable import Explore
import Synchronization
import Testing

@Suite("Progress")
struct ProgressReporterTests {
  final class Lines: Sendable {
    let lines = Mutex<[String]>([])
  }

  @Test("a long exploration reports schedules done and schedules per second")
  func reportsProgress() {
    let output = Lines()
    var progress = ProgressReporter(label: "Tests/A.swift:3", interval: .zero) { line in
      output.lines.withLock { $0.append(line) }
    }
    progress.ranSchedule(63)
    #expect(output.lines.withLock { $0.isEmpty })
    progress.ranSchedule(64)
    let lines = output.lines.withLock { $0 }
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("explore Tests/A.swift:3: 64 schedules so far, ") == true)
    #expect(lines.first?.hasSuffix(" schedules/s") == true)
    #expect(progress.reported)
  }

  @Test("with no interval nothing is printed")
  func silent() {
    let output = Lines()
    var progress = ProgressReporter(label: "here", interval: nil) { line in
      output.lines.withLock { $0.append(line) }
    }
    for count in 1...1_000 { progress.ranSchedule(count) }
    #expect(output.lines.withLock { $0.isEmpty })
    #expect(!progress.reported)
  }

  @Test("a shard prints what it covered even when the search was too short to print progress")
  func shardPrintsSummary() {
    let output = Lines()
    let progress = ProgressReporter(label: "Tests/A.swift:3", interval: .seconds(2)) { line in
      output.lines.withLock { $0.append(line) }
    }
    var summary = ExplorationSummary(
      strategy: "exhaustive DFS", schedules: 412, distinctTraces: 412, claim: ExplorationClaim(coversEverySchedule: true), duration: .seconds(1))
    progress.finished(summary)
    #expect(output.lines.withLock { $0.isEmpty })
    summary.shard = Shard(index: 2, count: 4)
    progress.finished(summary)
    #expect(
      output.lines.withLock { $0 } == [
        "explore Tests/A.swift:3: shard 2 of 4: 412 schedules, 412 distinct traces, every schedule of this shard explored, in 1.0 s (412 schedules/s) [exhaustive DFS]"
      ])
    // With no interval nothing is printed, shard or not.
    let silent = ProgressReporter(label: "here", interval: nil) { line in output.lines.withLock { $0.append(line) } }
    silent.finished(summary)
    #expect(output.lines.withLock { $0.count } == 1)
  }
}
