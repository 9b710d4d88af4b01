// The swift-service-lifecycle recipe of Sources/Explore/Explore.docc/Recipes.md, as the article
// prints it: the text between the markers is the article's code block, word for word.

// snippet begins
import Explore
import Logging
import ServiceLifecycle
import Testing

/// Takes jobs from clients and queues them for the worker, until graceful shutdown.
struct Intake: Service {
  let queue: AsyncStream<Int>.Continuation

  /// Whether the job was accepted: once it is, the worker must do it.
  func submit(_ job: Int) -> Bool {
    if case .enqueued = queue.yield(job) { return true }
    return false  // the queue is closed: the client tries elsewhere
  }

  func run() async throws {
    try await gracefulShutdown()
    queue.finish()  // accepts nothing more; what is queued is still done
  }
}

/// Does the queued jobs, one at a time, and records each in the ledger.
struct Worker: Service {
  let jobs: AsyncStream<Int>
  let ledger: Ledger

  func run() async throws {
    for await job in jobs { await ledger.record(job) }
    // The queue ends when the intake shuts down, before this service's turn: returning now would
    // fail the group (`serviceFinishedUnexpectedly`), so wait for the turn.
    try await gracefulShutdown()
  }
}

actor Ledger {
  private(set) var done: [Int] = []
  func record(_ job: Int) { done.append(job) }
}

@Test func everyAcceptedJobIsDone() async throws {
  try await explore {
    let (jobs, queue) = AsyncStream.makeStream(of: Int.self)
    let intake = Intake(queue: queue)
    let ledger = Ledger()
    // No signals, so no signal handlers; the group shuts its services down in reverse order.
    let group = ServiceGroup(
      services: [Worker(jobs: jobs, ledger: ledger), intake],
      logger: Logger(label: "jobs") { _ in SwiftLogNoOpLogHandler() }
    )
    let running = Task { try await group.run() }
    let client = Task { (1...2).filter { intake.submit($0) } }
    await group.triggerGracefulShutdown()
    try await running.value
    let accepted = await client.value
    #expect(await ledger.done == accepted)
  }
}
// snippet ends
