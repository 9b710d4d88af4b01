// Two transfers that share an account. The buggy bank reads both balances, suspends to
// write an audit record, then writes balances computed from what it read: when the transfers
// interleave across that suspension, money appears or disappears. Explore finds the schedule,
// prints the report with its replay line, and shows that the fixed bank passes every schedule.
import Effects
import Explore

actor Bank {
  private(set) var balances: [Int]
  private(set) var auditLog: [String] = []
  private let recomputesAfterSuspending: Bool

  init(balances: [Int], fixed: Bool) {
    self.balances = balances
    recomputesAfterSuspending = fixed
  }

  var total: Int { balances.reduce(0, +) }

  func transfer(_ amount: Int, from source: Int, to destination: Int) async {
    let sourceBalance = balances[source]
    let destinationBalance = balances[destination]
    await audit("\(amount) from \(source) to \(destination)")
    if recomputesAfterSuspending {
      balances[source] -= amount
      balances[destination] += amount
    } else {
      balances[source] = sourceBalance - amount
      balances[destination] = destinationBalance + amount
    }
  }

  private func audit(_ entry: String) async {
    await Task.yield()  // writing to the audit store
    auditLog.append(entry)
  }
}

struct MoneyNotConserved: Error, CustomStringConvertible {
  let total: Int
  var description: String { "the bank holds \(total) in total, not 100" }
}

func twoTransfers(fixed: Bool) -> @Sendable () async throws -> Void {
  {
    let bank = Bank(balances: [100, 0, 0], fixed: fixed)
    let a = Task.effect(name: "A") { await bank.transfer(50, from: 0, to: 1) }
    let b = Task.effect(name: "B") { await bank.transfer(30, from: 1, to: 2) }
    _ = await (a.value, b.value)
    let total = await bank.total
    if total != 100 { throw MoneyNotConserved(total: total) }
  }
}

print("Exploring the buggy bank…\n")
do {
  let summary = try await explore(.exhaustive, twoTransfers(fixed: false))
  print("no failing schedule?! \(summary)")
} catch {
  print(error)
}

print("\nExploring the fixed bank…")
let summary = try await explore(.exhaustive, twoTransfers(fixed: true))
print("every schedule passes: \(summary)")
