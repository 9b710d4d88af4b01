/// A vector clock: for each thread of a run, by its index, the last of its epochs that happens
/// before the holder's present.
struct VectorClock {
  private(set) var entries: [UInt32] = []

  subscript(thread: Int) -> UInt32 {
    thread < entries.count ? entries[thread] : 0
  }

  /// Moves `thread`'s own entry on by one: what it does from now on is a new epoch.
  mutating func tick(_ thread: Int) {
    if thread >= entries.count { entries.append(contentsOf: repeatElement(0, count: thread + 1 - entries.count)) }
    entries[thread] += 1
  }

  /// Takes in everything `other` happens after.
  mutating func join(_ other: VectorClock) {
    if other.entries.count > entries.count { entries.append(contentsOf: repeatElement(0, count: other.entries.count - entries.count)) }
    for index in other.entries.indices where other.entries[index] > entries[index] { entries[index] = other.entries[index] }
  }
}
