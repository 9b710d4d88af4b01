import Explore
import ExploreTesting
import Synchronization
import Testing

/// A channel on a `Mutex`, as `AsyncChannel`-like code has it: a receiver with no value waiting
/// parks its continuation, a sender hands its value to a parked receiver or leaves it. With
/// `checksThenHandsOff`, a sender checks for a parked receiver in one critical section and takes
/// it in a second one of the same step: two senders can both see the one receiver, and the second
/// finds none and drops its value, so a receiver waits for good.
private final class HandOffChannel: Sendable {
  private struct State {
    var receivers: [CheckedContinuation<Int, Never>] = []
    var values: [Int] = []
  }

  private let state = Mutex(State())
  private let checksThenHandsOff: Bool

  init(checksThenHandsOff: Bool) { self.checksThenHandsOff = checksThenHandsOff }

  func send(_ value: Int) {
    if checksThenHandsOff {
      guard state.withLock({ !$0.receivers.isEmpty }) else {
        state.withLock { $0.values.append(value) }
        return
      }
      let receiver = state.withLock { $0.receivers.isEmpty ? nil : $0.receivers.removeFirst() }
      receiver?.resume(returning: value)
      return
    }
    let receiver: CheckedContinuation<Int, Never>? = state.withLock { state in
      guard !state.receivers.isEmpty else {
        state.values.append(value)
        return nil
      }
      return state.receivers.removeFirst()
    }
    receiver?.resume(returning: value)
  }

  func receive() async -> Int {
    await withCheckedContinuation { continuation in
      let value: Int? = state.withLock { state in
        guard !state.values.isEmpty else {
          state.receivers.append(continuation)
          return nil
        }
        return state.values.removeFirst()
      }
      if let value { continuation.resume(returning: value) }
    }
  }
}

@Suite("Instrumented code: a channel whose check and hand-off sit in two critical sections of one step")
struct HandOffChannelTests {
  static func twoSendersTwoReceivers(checksThenHandsOff: Bool) -> @Sendable () async throws -> Void {
    {
      let channel = HandOffChannel(checksThenHandsOff: checksThenHandsOff)
      async let first = channel.receive()
      async let second = channel.receive()
      async let sent: Void = {
        async let one: Void = channel.send(1)
        async let two: Void = channel.send(2)
        _ = await (one, two)
      }()
      let received = await [first, second]
      _ = await sent
      #expect(received.sorted() == [1, 2])
    }
  }

  /// The default search and budget but for its time limit, which a loaded machine reaches first:
  /// the reduced part finds it at schedule 128.
  static let untimed = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil))

  @Test("the value the second sender drops leaves a receiver waiting for good: found by the default search, with no pausing setting")
  func splitHandOffFound() async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(configuration: Self.untimed, Self.twoSendersTwoReceivers(checksThenHandsOff: true))
    }
    #expect(failure.summary.contains("deadlock") || failure.summary.contains("wait"), "\(failure.summary)")
  }

  @Test("the hand-off in one critical section passes every schedule")
  func handOffPasses() async throws {
    let summary = try await explore(configuration: Self.untimed, Self.twoSendersTwoReceivers(checksThenHandsOff: false))
    #expect(summary.exploredEverySchedule, "\(summary)")
  }
}
