import BugCatalogue
import Effects

/// Two deposits that read, suspend and write: a lost update under some schedules.
private actor Account {
  private(set) var balance = 0
  func deposit(_ amount: Int) async {
    let read = balance
    await Task.yield()
    balance = read + amount
  }
}

/// Alice deposits 10 and Bob 20 on one account; fails when one deposit is lost.
@Sendable func twoDeposits() async throws {
  let account = Account()
  let alice = Task.effect(name: "Alice") { await account.deposit(10) }
  let bob = Task.effect(name: "Bob") { await account.deposit(20) }
  _ = await (alice.value, bob.value)
  let balance = await account.balance
  try check(balance == 30, "the balance is \(balance), not 30")
}
