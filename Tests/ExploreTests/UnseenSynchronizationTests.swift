import Effects
import EffectScheduler
import Explore
import Synchronization
import Testing

/// Sessions made on first use, the lookup and the store in two `Mutex` critical sections of one
/// step: a race this build, not instrumented, cannot split.
private final class SplitSessions: Sendable {
  private let byUser = Mutex<[String: Int]>([:])
  let made = Atomic<Int>(0)

  func session(for user: String) -> Int {
    if let known = byUser.withLock({ $0[user] }) { return known }
    let session = made.add(1, ordering: .relaxed).newValue
    byUser.withLock { $0[user] = session }
    return session
  }
}

/// The same, on the drop-in `EffectMutex`, whose critical sections are scheduling points.
private final class DropInSessions: Sendable {
  private let byUser = EffectMutex<[String: Int]>([:])
  private let made = EffectMutex(0)

  func session(for user: String) -> Int {
    if let known = byUser.withLock({ $0[user] }) { return known }
    let session = made.withLock { made in
      made += 1
      return made
    }
    byUser.withLock { $0[user] = session }
    return session
  }
}

/// Holders of a `Mutex` or an `Atomic` of other shapes: generic, inherited, an actor's.
private final class GenericBox<Value: Sendable>: Sendable {
  let value: Mutex<Value>
  init(_ value: Value) { self.value = Mutex(value) }
}

private class Base: @unchecked Sendable {
  let flag = Atomic<Bool>(false)
}

private final class Derived: Base, @unchecked Sendable {}

private actor Gate {
  let opened = Atomic<Int>(0)
  func open() { opened.add(1, ordering: .relaxed) }
}

/// Copyable state only.
private final class Plain: @unchecked Sendable {
  var names: [String] = []
}

private actor Counter {
  var count = 0
  func increment() { count += 1 }
}

@Suite("Mutex and atomics outside instrumented code: the claim says they ran whole")
struct UnseenSynchronizationTests {
  static let configuration = ExploreConfiguration(progressInterval: nil, portfolioBudget: PortfolioBudget(time: nil))

  @Test("a run that makes an object holding a Mutex claims every schedule only given that its critical sections ran whole",
    .enabled(if: RuntimeCapabilities.current.seesLocks), arguments: [ExplorationStrategy.default, .exhaustive])
  func mutexHolderQualifiesTheClaim(strategy: ExplorationStrategy) async throws {
    // The split get-or-create is a real bug no schedule of this build shows: the pass must not
    // read as a proof.
    let summary = try await explore(strategy, configuration: Self.configuration) {
      let sessions = SplitSessions()
      async let first = sessions.session(for: "ada")
      async let second = sessions.session(for: "ada")
      let both = await [first, second]
      #expect(both[0] == both[1])
    }
    #expect(summary.claim.coversEverySchedule, "\(summary)")
    #expect(summary.claim.assumptions == [.synchronizationRanWhole], "\(summary)")
    #expect(!summary.exploredEverySchedule, "\(summary)")
    #expect(summary.description.contains("assumed: steps made objects holding a Mutex"), "\(summary)")
  }

  @Test("a generic holder, a subclass of a holder and an actor holding an Atomic qualify the claim; a class of copyable state does not",
    .enabled(if: RuntimeCapabilities.current.seesLocks))
  func holdersOfOtherShapes() async throws {
    let makers: [@Sendable () async -> Void] = [
      { _ = GenericBox(1).value.withLock { $0 } },
      { _ = Derived().flag.load(ordering: .relaxed) },
      { await Gate().open() },
    ]
    for make in makers {
      let summary = try await explore(.exhaustive, configuration: Self.configuration) {
        async let first: Void = make()
        async let second: Void = make()
        _ = await (first, second)
      }
      #expect(summary.claim.assumptions == [.synchronizationRanWhole], "\(summary)")
    }
    let plain = try await explore(.exhaustive, configuration: Self.configuration) {
      async let first = Plain().names.count
      async let second = Plain().names.count
      _ = await (first, second)
    }
    #expect(plain.exploredEverySchedule, "\(plain)")
  }

  @Test("the drop-in EffectMutex, and actors, leave the claim unqualified", arguments: [ExplorationStrategy.default, .exhaustive])
  func dropInsAndActorsDoNot(strategy: ExplorationStrategy) async throws {
    let dropIn = try await explore(strategy, configuration: Self.configuration) {
      let sessions = DropInSessions()
      async let first = sessions.session(for: "ada")
      async let second = sessions.session(for: "ada")
      _ = await [first, second]
    }
    // Found: the drop-in's critical sections are scheduling points.
    #expect(dropIn.claim.assumptions.isEmpty, "\(dropIn)")
    let actors = try await explore(strategy, configuration: Self.configuration) {
      let counter = Counter()
      async let first: Void = counter.increment()
      async let second: Void = counter.increment()
      _ = await (first, second)
      #expect(await counter.count == 2)
    }
    #expect(actors.exploredEverySchedule, "\(actors)")
  }
}
