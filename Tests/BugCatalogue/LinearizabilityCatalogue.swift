import Explore
import Synchronization

// Concurrent types with known verdicts for the linearizability check: four that are not
// linearizable, each with a correct twin. Each `check` declares the type's operations.

/// One entry: a type, whether it is linearizable, and its check.
public struct LinearizabilityEntry: Sendable, CustomStringConvertible {
  /// What the type is.
  public let description: String
  /// Whether every concurrent history of it is linearizable.
  public let isLinearizable: Bool
  /// Runs the check with `configuration`.
  public let check: @Sendable (LinearizabilityConfiguration) async throws(LinearizabilityFailure) -> LinearizabilitySummary
}

extension LinearizabilityEntry {
  /// The catalogue: each buggy type followed by its correct twin.
  public static let all: [LinearizabilityEntry] = [
    LinearizabilityEntry(description: "an image cache that checks, awaits the download, then stores", isLinearizable: false) { configuration throws(LinearizabilityFailure) in
      try await checkCache(deduplicates: false, configuration)
    },
    LinearizabilityEntry(description: "an image cache that stores the download's task before awaiting it", isLinearizable: true) { configuration throws(LinearizabilityFailure) in
      try await checkCache(deduplicates: true, configuration)
    },
    LinearizabilityEntry(description: "a counter that reads, awaits, then writes", isLinearizable: false) { configuration throws(LinearizabilityFailure) in
      try await checkCounter(writesBeforeAwaiting: false, configuration)
    },
    LinearizabilityEntry(description: "a counter that writes before it awaits", isLinearizable: true) { configuration throws(LinearizabilityFailure) in
      try await checkCounter(writesBeforeAwaiting: true, configuration)
    },
    LinearizabilityEntry(description: "a queue whose dequeue awaits between the check and the removal", isLinearizable: false) { configuration throws(LinearizabilityFailure) in
      try await checkQueue(removesBeforeAwaiting: false, configuration)
    },
    LinearizabilityEntry(description: "a queue whose dequeue removes before it awaits", isLinearizable: true) { configuration throws(LinearizabilityFailure) in
      try await checkQueue(removesBeforeAwaiting: true, configuration)
    },
    LinearizabilityEntry(description: "an account behind a Mutex, released between withdrawal and deposit", isLinearizable: false) { configuration throws(LinearizabilityFailure) in
      try await checkAccount(oneCriticalSection: false, configuration)
    },
    LinearizabilityEntry(description: "an account behind a Mutex, one critical section a transfer", isLinearizable: true) { configuration throws(LinearizabilityFailure) in
      try await checkAccount(oneCriticalSection: true, configuration)
    },
  ]
}

/// Where a call goes to wait: an actor hop, as a log or a server would be.
actor Audit {
  private var entries = 0
  func note() { entries += 1 }
}

// MARK: - An image cache

/// A server counting each URL's downloads: the answer is the download's number.
actor ImageDownloads {
  private var downloads: [String: Int] = [:]
  func download(_ url: String) -> Int {
    downloads[url, default: 0] += 1
    return downloads[url]!
  }
}

/// Caches each URL's download. The buggy one checks the cache, awaits the download and stores it,
/// so two callers can both miss and download twice; the twin stores the download's task first.
actor CachedImages {
  private let server = ImageDownloads()
  private let deduplicates: Bool
  private var images: [String: Int] = [:]
  private var downloads: [String: Task<Int, Never>] = [:]

  init(deduplicates: Bool) { self.deduplicates = deduplicates }

  func image(_ url: String) async -> Int {
    if deduplicates {
      if let download = downloads[url] { return await download.value }
      let download = Task { await server.download(url) }
      downloads[url] = download
      return await download.value
    }
    if let image = images[url] { return image }
    let image = await server.download(url)
    images[url] = image
    return image
  }
}

private func checkCache(deduplicates: Bool, _ configuration: LinearizabilityConfiguration) async throws(LinearizabilityFailure) -> LinearizabilitySummary {
  try await checkLinearizability(of: { CachedImages(deduplicates: deduplicates) }, configuration: configuration) { ops in
    ops.add("image(url)", arguments: ["a", "b"]) { cache, url in await cache.image(url) }
  }
}

// MARK: - A counter

/// Counts calls. The buggy one reads, awaits an audit and writes what it read plus one, losing
/// updates; the twin writes before it awaits.
actor AuditedCounter {
  private let audit = Audit()
  private let writesBeforeAwaiting: Bool
  private var value = 0

  init(writesBeforeAwaiting: Bool) { self.writesBeforeAwaiting = writesBeforeAwaiting }

  func increment() async -> Int {
    if writesBeforeAwaiting {
      value += 1
      let counted = value
      await audit.note()
      return counted
    }
    let read = value
    await audit.note()
    value = read + 1
    return value
  }

  var count: Int { value }
}

private func checkCounter(writesBeforeAwaiting: Bool, _ configuration: LinearizabilityConfiguration) async throws(LinearizabilityFailure) -> LinearizabilitySummary {
  try await checkLinearizability(of: { AuditedCounter(writesBeforeAwaiting: writesBeforeAwaiting) }, configuration: configuration) { ops in
    ops.add("increment") { counter in await counter.increment() }
    ops.add("count") { counter in await counter.count }
  }
}

// MARK: - A queue

/// A queue. The buggy dequeue reads the first element, awaits a log and then removes the first
/// element, so two callers can get the same one; the twin removes it before it awaits.
actor LoggedQueue {
  private let log = Audit()
  private let removesBeforeAwaiting: Bool
  private var items: [Int] = []

  init(removesBeforeAwaiting: Bool) { self.removesBeforeAwaiting = removesBeforeAwaiting }

  func enqueue(_ item: Int) { items.append(item) }

  func dequeue() async -> Int? {
    if removesBeforeAwaiting {
      let first = items.isEmpty ? nil : items.removeFirst()
      await log.note()
      return first
    }
    guard let first = items.first else { return nil }
    await log.note()
    if !items.isEmpty { items.removeFirst() }
    return first
  }
}

private func checkQueue(removesBeforeAwaiting: Bool, _ configuration: LinearizabilityConfiguration) async throws(LinearizabilityFailure) -> LinearizabilitySummary {
  try await checkLinearizability(of: { LoggedQueue(removesBeforeAwaiting: removesBeforeAwaiting) }, configuration: configuration) { ops in
    ops.add("enqueue(x)", arguments: [1, 2]) { queue, item in await queue.enqueue(item) }
    ops.add("dequeue") { queue in await queue.dequeue() }
  }
}

// MARK: - An account behind a Mutex

/// Two balances behind one `Mutex`. The buggy transfer withdraws in one critical section, records
/// the transfer on an actor, and deposits in another, so a total read between them is short; the
/// twin moves the money in one critical section, then records.
final class TwoBalanceAccount: Sendable {
  private let balances = Mutex((checking: 100, savings: 0))
  private let ledger = Audit()
  private let oneCriticalSection: Bool

  init(oneCriticalSection: Bool) { self.oneCriticalSection = oneCriticalSection }

  func transfer(_ amount: Int) async {
    if oneCriticalSection {
      balances.withLock { $0.checking -= amount; $0.savings += amount }
      await ledger.note()
      return
    }
    balances.withLock { $0.checking -= amount }
    await ledger.note()
    balances.withLock { $0.savings += amount }
  }

  var total: Int { balances.withLock { $0.checking + $0.savings } }
}

private func checkAccount(oneCriticalSection: Bool, _ configuration: LinearizabilityConfiguration) async throws(LinearizabilityFailure) -> LinearizabilitySummary {
  try await checkLinearizability(of: { TwoBalanceAccount(oneCriticalSection: oneCriticalSection) }, configuration: configuration) { ops in
    ops.add("transfer(amount)", arguments: [10, 30]) { account, amount in await account.transfer(amount) }
    ops.add("total") { account in account.total }
  }
}
