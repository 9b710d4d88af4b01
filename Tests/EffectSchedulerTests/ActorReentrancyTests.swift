import EffectScheduler
import Effects
import Testing

/// An account whose `deposit` reads the balance, suspends, then writes: a lost update waiting to
/// happen when two deposits interleave.
private actor Account {
  private(set) var balance = 0

  func deposit(_ amount: Int) async {
    let current = balance
    await Task.yield()
    balance = current + amount
  }
}

@Suite("Actor reentrancy")
struct ActorReentrancyTests {
  @Sendable static func twoDeposits() async -> Int {
    let account = Account()
    let first = Task.effect(name: "first") { await account.deposit(10) }
    let second = Task.effect(name: "second") { await account.deposit(20) }
    await first.value
    await second.value
    return await account.balance
  }

  @Test("some schedule loses an update and some schedule keeps both")
  func lostUpdateDependsOnSchedule() async throws {
    try await expectLostUpdateDependsOnSchedule(Self.twoDeposits)
  }

  @Test("under FIFO both deposits read before either writes")
  func fifoLosesUpdate() async throws {
    let execution = try await DeterministicScheduler.run(strategy: .fifo) { await Self.twoDeposits() }
    #expect(execution.value == 20)
  }
}
