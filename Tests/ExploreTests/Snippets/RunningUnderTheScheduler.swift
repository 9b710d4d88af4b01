// Code block 1 of Sources/EffectScheduler/EffectScheduler.docc/RunningUnderTheScheduler.md, as the article prints it: `SnippetTests` checks, word for word, that
// every Swift block of the articles and the README is the text between the markers of a file here.

// snippet begins
import EffectScheduler
import Effects

actor Savings {
  private(set) var balance = 0
  func deposit(_ amount: Int) { balance += amount }
}

@Sendable func depositTwice() async -> Int {
  let savings = Savings()
  let first = Task.effect(name: "first") { await savings.deposit(10) }
  let second = Task.effect(name: "second") { await savings.deposit(20) }
  _ = await (first.value, second.value)
  return await savings.balance
}

func runTwoDeposits() async throws {
  let execution = try await DeterministicScheduler.run(strategy: .random(seed: 42), operation: depositTwice)
  print(execution.value)        // what the body returned
  print(execution.schedule)     // s1:0.1.a0.2.…, the choices made
  print(execution.trace.table)  // every task and what happened to it at each step

  // The same choices give the same run, event for event.
  let again = try await DeterministicScheduler.run(strategy: .replay(execution.schedule), operation: depositTwice)
  assert(again.trace == execution.trace)
}
// snippet ends
