import Synchronization

/// The threads of a pool that wait for work, each by the object that stands for it: a thread
/// handed work is taken out first, and a thread that has waited long enough leaves only if it is
/// still here, as otherwise work is on its way to it. ``HostThread``'s pool and
/// ``DriverThreadPool`` keep theirs so.
final class IdleThreads<Member: AnyObject & Sendable>: Sendable {
  private let members = Mutex<[Member]>([])

  init() {}

  /// Takes the thread that waited last, if any: no other caller will take it.
  func take() -> Member? {
    members.withLock { $0.popLast() }
  }

  /// Adds `member`, which now waits for work.
  func add(_ member: Member) {
    members.withLock { $0.append(member) }
  }

  /// Takes `member` out, if it is still here: then no work will be handed to it.
  func leave(_ member: Member) -> Bool {
    members.withLock { members in
      guard let index = members.firstIndex(where: { $0 === member }) else { return false }
      members.remove(at: index)
      return true
    }
  }
}
