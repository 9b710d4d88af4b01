import EffectScheduler
import Explore
import ExploreTesting
import Foundation
import Testing

/// A channel on an `NSLock`, as libraries write them: receivers park continuations in its state,
/// and a send hands its element to one. With `splitsTheSend`, a send checks for a waiting receiver
/// in one critical section and takes it in a second: another send between the two finds the same
/// receiver, takes it first, and the element of the send that checked first is lost.
private final class NSLockChannel: @unchecked Sendable {
  private let lock = NSLock()
  private var receivers: [CheckedContinuation<Int, Never>] = []
  private var buffer: [Int] = []
  private let splitsTheSend: Bool

  init(splitsTheSend: Bool) { self.splitsTheSend = splitsTheSend }

  func send(_ element: Int) {
    if splitsTheSend {
      lock.lock()
      let receiverWaits = !receivers.isEmpty
      lock.unlock()
      guard receiverWaits else {
        lock.lock()
        buffer.append(element)
        lock.unlock()
        return
      }
      lock.lock()
      let receiver = receivers.isEmpty ? nil : receivers.removeFirst()
      lock.unlock()
      receiver?.resume(returning: element)
    } else {
      lock.lock()
      if receivers.isEmpty {
        buffer.append(element)
        lock.unlock()
      } else {
        let receiver = receivers.removeFirst()
        lock.unlock()
        receiver.resume(returning: element)
      }
    }
  }

  func receive() async -> Int {
    await withCheckedContinuation { continuation in
      lock.lock()
      if buffer.isEmpty {
        receivers.append(continuation)
        lock.unlock()
      } else {
        let element = buffer.removeFirst()
        lock.unlock()
        continuation.resume(returning: element)
      }
    }
  }
}

/// Check-then-act split across two critical sections of one step, on locks the scheduler does not
/// control: pausing between them (`pausesBetweenCriticalSections`), another task can run between
/// the two; without, the claim says they ran whole, and the default portfolio, once those
/// schedules pass, searches again pausing between them.
@Suite("A check-then-act split across two critical sections of one step")
struct SplitCriticalSectionTests {
  /// The default configuration, but for the portfolio's time budget, so the verdict does not
  /// depend on the machine's speed, and pausing between critical sections.
  static let configuration: ExploreConfiguration = {
    var configuration = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil))
    configuration.scheduler.pausesBetweenCriticalSections = true
    return configuration
  }()

  static func twoSendersTwoReceivers(splitsTheSend: Bool) -> @Sendable () async throws -> Void {
    {
      let channel = NSLockChannel(splitsTheSend: splitsTheSend)
      let first = Task { await channel.receive() }
      let second = Task { await channel.receive() }
      let senders = [Task { channel.send(1) }, Task { channel.send(2) }]
      for sender in senders { await sender.value }
      let received = await [first.value, second.value]
      #expect(received.sorted() == [1, 2])
    }
  }

  @Test("pausing between critical sections finds the element lost between the check and the hand-off",
    arguments: [ExplorationStrategy.default, .exhaustive, .reduced()])
  func foundByDefault(strategy: ExplorationStrategy) async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(strategy, configuration: Self.configuration, Self.twoSendersTwoReceivers(splitsTheSend: true))
    }
    #expect(failure.summary.contains("leaked tasks") || failure.summary.contains("deadlock"), "\(failure.summary)")
  }

  @Test("the channel whose send checks and hands off in one critical section passes every schedule, resting on nothing",
    arguments: [ExplorationStrategy.default, .exhaustive])
  func fixedPasses(strategy: ExplorationStrategy) async throws {
    let summary = try await explore(strategy, configuration: Self.configuration, Self.twoSendersTwoReceivers(splitsTheSend: false))
    #if os(Linux) && _pointerBitWidth(_64)
      #expect(summary.exploredEverySchedule, "\(summary)")
    #endif
  }

  @Test("by default the split channel passes, but the claim names the assumption and the setting that removes it")
  func defaultNamesTheAssumption() async throws {
    let summary = try await explore(.exhaustive, configuration: ExploreConfiguration(progressInterval: nil), Self.twoSendersTwoReceivers(splitsTheSend: true))
    #if os(Linux) && _pointerBitWidth(_64)
      #expect(summary.claim.assumptions == [.uncontrolledLocksRanWhole], "\(summary)")
      #expect(summary.description.contains("pausesBetweenCriticalSections"), "\(summary)")
    #endif
  }

  /// The default configuration, but for the portfolio's time budget, so that the verdict does not
  /// depend on the machine's speed.
  static let defaultConfiguration = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil))

  @Test("the default portfolio, once the schedules running critical sections whole pass, pauses between them and finds the lost element; its replay string says so")
  func defaultPortfolioFindsIt() async throws {
    let program = Self.twoSendersTwoReceivers(splitsTheSend: true)
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.default, configuration: Self.defaultConfiguration, program)
    }
    #if os(Linux) && _pointerBitWidth(_64)
      #expect(failure.strategy.contains("between critical sections"), "\(failure.strategy)")
      let schedule = try #require(failure.schedule).description
      #expect(schedule.hasPrefix("s1:cs."), "\(schedule)")
      // The replay pauses between critical sections, as the schedule says, under the default configuration.
      let replayed = try await requireFailure(ExplorationFailure.self) {
        try await explore(.replay(schedule), configuration: ExploreConfiguration(progressInterval: nil), program)
      }
      #expect(replayed.summary == failure.summary, "\(replayed.summary)")
    #endif
  }

  @Test("the default portfolio settles the fixed channel with its critical sections split too, so its claim rests on nothing")
  func defaultPortfolioSettlesTheFixedChannel() async throws {
    let summary = try await explore(.default, configuration: Self.defaultConfiguration, Self.twoSendersTwoReceivers(splitsTheSend: false))
    #if os(Linux) && _pointerBitWidth(_64)
      #expect(summary.exploredEverySchedule, "\(summary)")
      #expect(summary.portfolioParts.contains { $0.splitsCriticalSections && $0.ending == .triedEverySchedule }, "\(summary)")
      #expect(summary.description.contains("between critical sections"), "\(summary)")
    #endif
  }

  @Test("a schedule that split critical sections reads back as one")
  func scheduleKeepsItsGranularity() throws {
    let schedule = try Schedule(parsing: "s1:cs.0.1*2.a0")
    #expect(schedule.splitsCriticalSections)
    #expect(schedule.choices.count == 4)
    #expect(schedule.description == "s1:cs.0.1*2.a0")
    #expect(try Schedule(parsing: "s1:cs").choices.isEmpty)
    #expect(try !Schedule(parsing: "s1:0.1").splitsCriticalSections)
  }
}
