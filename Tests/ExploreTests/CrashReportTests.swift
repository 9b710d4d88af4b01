import EffectScheduler
import Explore
import Foundation
import Synchronization
import Testing

/// A program that traps under one schedule takes the process down; before it does, the schedule
/// of the run under way is printed as a line that replays it. The crash happens in a child
/// process: this test binary again, running only ``CrashingRun``.
@Suite("A run that crashes the process")
struct CrashReportTests {
  #if os(Linux)
    @Test("prints the schedule under way, as a line that replays the crash")
    func printsTheReplayLine() throws {
      // The child ends by itself: it traps, or, should the handler hang, its alarm ends it.
      let (text, reason) = try ChildProcess.run(suite: "CrashingRun", setting: "EXPLORE_CRASHING_RUN")
      #expect(reason == .uncaughtSignal)
      #expect(text.contains("EffectScheduler: the process crashed"), "\(text)")
      let replay = text.split(separator: "\n").first { $0.contains("explore(.replay(\"") }
      #expect(replay != nil, "\(text)")
      // The schedule printed is the one under which the second task ran first.
      #expect(text.contains("s1:0.2"), "\(text)")
    }
  #endif
}

/// The child's part: an exploration whose program traps once the second task runs first.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["EXPLORE_CRASHING_RUN"] != nil))
struct CrashingRun {
  final class Order: Sendable {
    let first = Mutex<Int?>(nil)
    func ran(_ task: Int) { first.withLock { $0 = $0 ?? task } }
  }

  @Test func trapsUnderOneSchedule() async throws {
    try await explore(.exhaustive, configuration: ExploreConfiguration(progressInterval: nil)) {
      let order = Order()
      let a = Task { order.ran(1) }
      let b = Task { order.ran(2) }
      await a.value
      await b.value
      if order.first.withLock({ $0 }) == 2 { fatalError("the second task ran first") }
    }
  }
}
