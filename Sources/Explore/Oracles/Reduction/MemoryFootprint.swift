import EffectScheduler

/// What one step of an instrumented run read and wrote of the memory that was there before its
/// choice point, kept with its option there (``StepFootprint``): while the option sleeps in later
/// runs, a step of theirs that writes what it touched, or touches what it wrote, wakes it.
///
/// Memory allocated at the choice point or after is left out, on both sides: the option's step,
/// run at the choice point, could not have touched what did not exist yet. The rest is compared
/// by word numbers (``StepMemory``), valid in both runs only where the touches before the choice
/// point were the same in both: otherwise, and for words neither run had touched before the
/// choice point, any write and other touch are taken to meet.
struct MemoryFootprint: Equatable {
  /// The step's index, which is its choice point's depth, and what the run had numbered and
  /// touched before it (``StepMemory/prefix(before:)``).
  let depth: Int
  let numbered: Int32
  let hash: UInt64
  /// The words numbered before the step that it read and that it wrote, sorted.
  private(set) var reads: [Int32] = []
  private(set) var writes: [Int32] = []
  /// Whether it read, and wrote, words no step before it had touched.
  private(set) var readsUnnumbered = false
  private(set) var writesUnnumbered = false
  /// Whether runs whose touches before the choice point differed were merged: any touch meets it.
  private(set) var incomparable = false

  /// The footprint of `step` of the run whose touches are `memory`.
  init(step: Int, of memory: StepMemory) {
    depth = step
    (numbered, hash) = memory.prefix(before: step)
    var reads: Set<Int32> = []
    var writes: Set<Int32> = []
    for touch in memory.touches(ofStep: step) where touch.allocatedIn < step {
      if touch.word == MemoryTouch.everyWord {
        incomparable = true
      } else if touch.word < numbered {
        if touch.writes { writes.insert(touch.word) } else { reads.insert(touch.word) }
      } else if touch.writes {
        writesUnnumbered = true
      } else {
        readsUnnumbered = true
      }
    }
    self.reads = reads.sorted()
    self.writes = writes.sorted()
  }

  /// Whether it touched anything that was there before its choice point.
  private var touchesAnything: Bool {
    incomparable || readsUnnumbered || writesUnnumbered || !reads.isEmpty || !writes.isEmpty
  }

  /// Whether `step` of a run whose touches are `memory`, a run that passed through this
  /// footprint's choice point, wrote what this footprint touched or touched what it wrote.
  func meets(step: Int, of memory: StepMemory) -> Bool {
    guard touchesAnything else { return false }
    let prefix = memory.prefix(before: depth)
    let comparable = !incomparable && prefix.numbered == numbered && prefix.hash == hash
    for touch in memory.touches(ofStep: step) where touch.allocatedIn < depth {
      if !comparable || touch.word == MemoryTouch.everyWord { return true }
      if touch.word < numbered {
        if Self.holds(writes, touch.word) || touch.writes && Self.holds(reads, touch.word) { return true }
      } else if writesUnnumbered || touch.writes && readsUnnumbered {
        return true
      }
    }
    return false
  }

  /// Adds what `other`, the same step seen in another run through the same choice point,
  /// touched there.
  mutating func absorb(_ other: MemoryFootprint) {
    guard other != self else { return }
    if other.numbered != numbered || other.hash != hash { incomparable = true }
    incomparable = incomparable || other.incomparable
    readsUnnumbered = readsUnnumbered || other.readsUnnumbered
    writesUnnumbered = writesUnnumbered || other.writesUnnumbered
    reads = Array(Set(reads).union(other.reads)).sorted()
    writes = Array(Set(writes).union(other.writes)).sorted()
  }

  /// Whether the sorted `words` hold `word`.
  private static func holds(_ words: [Int32], _ word: Int32) -> Bool {
    var (low, high) = (0, words.count)
    while low < high {
      let middle = (low + high) / 2
      if words[middle] < word { low = middle + 1 } else { high = middle }
    }
    return low < words.count && words[low] == word
  }
}
