import EffectScheduler
import Effects
import Testing

/// An account whose deposit suspends between reading and writing, so tasks queue on it.
private actor Account {
  private(set) var balance = 0

  func deposit(_ amount: Int) async {
    let current = balance
    await Task.yield()
    balance = current + amount
  }
}

/// A ledger that the checkout writes to once the account is done.
private actor Ledger {
  private(set) var entries: [String] = []
  func write(_ entry: String) { entries.append(entry) }
}

/// A checkout and a refund on the first account, a top-up on the second, each noted in the ledger.
@Sendable private func shop() async -> Int {
  let first = Account()
  let second = Account()
  let ledger = Ledger()
  let checkout = Task.effect(name: "checkout") {
    await first.deposit(-30)
    await ledger.write("checkout")
  }
  let refund = Task.effect(name: "refund") { await first.deposit(10) }
  let topUp = Task.effect(name: "top-up") { await second.deposit(50) }
  _ = await (checkout.value, refund.value, topUp.value)
  return await first.balance + second.balance
}

/// The actors' column of a trace table, one cell a row, without the empty ones.
private func actorCells(_ trace: Trace) -> [String] {
  trace.table.split(separator: "\n").dropFirst().compactMap { line in
    let cell = line.split(separator: "|", omittingEmptySubsequences: false).last.map { $0.trimmingCharacters(in: .whitespaces) }
    return cell?.isEmpty == false ? cell : nil
  }
}

@Suite("Actor names in traces")
struct ActorTraceNamingTests {
  @Test("actors are named by type, numbered only where a type has several, in order of first appearance")
  func namesAndNumbers() async throws {
    let execution = try await DeterministicScheduler.run(strategy: .fifo, operation: shop)
    #expect(execution.trace.actors.map(\.typeName) == ["Account", "Account", "Ledger"])
    #expect((0..<3).map(execution.trace.actorName) == ["Account#1", "Account#2", "Ledger"])
    let cells = actorCells(execution.trace)
    #expect(cells.contains { $0.hasPrefix("Account#1 for #1 checkout") }, "\(execution.trace)")
    #expect(cells.contains { $0.hasPrefix("Account#2 for #3 top-up") }, "\(execution.trace)")
    #expect(cells.contains("Ledger for #1 checkout"), "\(execution.trace)")
    #expect(!cells.contains { $0.hasPrefix("job") }, "every actor's job names its actor")
  }

  @Test("two runs of one schedule name the actors and their tasks alike, though the actors live at other addresses")
  func namesAreDeterministic() async throws {
    for seed: UInt64 in [1, 2, 3] {
      let first = try await DeterministicScheduler.run(strategy: .random(seed: seed), operation: shop)
      let second = try await DeterministicScheduler.run(strategy: .replay(first.schedule), operation: shop)
      #expect(second.trace == first.trace)
      #expect(second.trace.table == first.trace.table)
    }
  }

  @Test("an actor's job that hands a task over while another waits for the actor goes on as a step of its own, for the task it goes on with")
  func jobGoesOnAfterHandOff() async throws {
    // Under FIFO the checkout and the refund both reach the first account before its job runs:
    // the job runs the checkout's deposit up to its yield, which hands the checkout over, and goes
    // on with the refund's in a step of its own, as another thread would have run it meanwhile.
    let execution = try await DeterministicScheduler.run(strategy: .fifo, operation: shop)
    let trace = execution.trace
    let jobs = trace.events.filter { $0.kind == .actorJob && $0.actor == 0 }
    #expect(jobs.contains { $0.scheduledBy == TaskID(1) } && jobs.contains { $0.scheduledBy == TaskID(2) }, "\(trace)")
    #expect(!trace.actorJobTasks.values.contains { $0.contains(TaskID(1)) && $0.contains(TaskID(2)) }, "\(trace)")
    #expect(trace.actorJobTasks.allSatisfy { step, tasks in
      tasks.first == trace.events.first { $0.step == step && $0.kind == .actorJob }?.scheduledBy
    })
  }

  @Test("an actor's job scheduled by another actor's job carries on the work of the task that job ran")
  func hopFromActorToActor() async throws {
    let execution = try await DeterministicScheduler.run(strategy: .fifo) {
      let ledger = Ledger()
      let account = Account()
      // The task goes from the account straight on to the ledger: the ledger's job is scheduled
      // while the account's job runs, when no task runs on the scheduler.
      await Task.effect(name: "checkout") {
        await account.deposit(-30)
        await ledger.write("checkout")
      }.value
    }
    let jobs = execution.trace.events.filter { $0.kind == .actorJob }
    #expect(!jobs.isEmpty)
    #expect(jobs.allSatisfy { $0.scheduledBy == TaskID(1) }, "\(execution.trace)")
  }
}

/// A counter made, used and dropped in turn, so that the next is often made where the last lived.
private actor ShortLived {
  private var count = 0
  func bump() async {
    count += 1
    await Task.yield()
  }
}

@Suite("Actors made where freed ones lived")
struct ActorAddressReuseTests {
  @Test("an actor made at the address of a freed one is a new actor in the trace, whether or not the memory was reused")
  func freedActorsAddressesAreNotTheirs() async throws {
    let execution = try await DeterministicScheduler.run(strategy: .fifo) {
      for _ in 0..<4 {
        let actor = ShortLived()
        // Its job runs in a task of its own, so the actor is freed with that task.
        await Task.effect { await actor.bump() }.value
      }
    }
    #expect(execution.trace.actors.count == 4, "\(execution.trace)")
  }
}
