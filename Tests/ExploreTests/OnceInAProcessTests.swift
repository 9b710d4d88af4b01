import Explore
import Foundation
import Testing

/// A value made the first time it is read in the process, under a lock: the first run of the
/// program takes the lock, the runs after it do not.
private enum MadeOnce {
  static let value: Int = {
    let lock = NSLock()
    lock.lock()
    defer { lock.unlock() }
    return 42
  }()
}

/// An actor the test's tasks share, so that the runs have more than one schedule.
private actor Tally {
  private(set) var total = 0
  func add(_ amount: Int) { total += amount }
}

@Suite("What a process does once")
struct OnceInAProcessTests {
  @Test("a lock taken only the first time a global is read does not make the determinism check report nondeterminism")
  func lazyGlobalUnderALock() async throws {
    let summary = try await explore(.exhaustive) {
      let tally = Tally()
      await withTaskGroup(of: Void.self) { group in
        group.addTask { await tally.add(MadeOnce.value) }
        group.addTask { await tally.add(1) }
      }
      #expect(await tally.total == 43)
    }
    #expect(summary.claimsEverySchedule(assuming: [.uncontrolledLocksRanWhole]))
  }
}
