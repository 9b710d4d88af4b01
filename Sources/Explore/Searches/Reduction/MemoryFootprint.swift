import EffectScheduler

/// What one step of an instrumented run read and wrote of the memory that was there before its
/// choice point, kept with its option there (``StepFootprint``): while the option sleeps in later
/// runs, a step of theirs that writes what it touched, or touches what it wrote, wakes it.
///
/// Memory allocated at the choice point or after is left out, on both sides: the option's step,
/// run at the choice point, could not have touched what did not exist yet. The rest is compared
/// by place (``MemoryTouch/place``), valid in both runs only where they came by it alike
/// (``StepMemory``): otherwise, and for words never allocated in a step that neither run had
/// touched before the choice point, any touch that may meet it is taken to.
struct MemoryFootprint: Equatable {
  /// A word, by the step that allocated it (-1 for none) and its place.
  struct Place: Hashable, Comparable {
    let step: Int32
    let place: Int64

    static func < (a: Place, b: Place) -> Bool { (a.step, a.place) < (b.step, b.place) }
  }

  /// The step's index, which is its choice point's depth, and what the run had placed of the
  /// memory never allocated in a step before it (``StepMemory/unallocated(before:)``).
  let depth: Int
  private let unallocated: (placed: Int64, hash: UInt64)
  /// The words the step read, and wrote, sorted.
  private(set) var reads: [Place] = []
  private(set) var writes: [Place] = []
  /// For each step whose allocations it touched, a hash of their sizes in its run.
  private(set) var allocations: [Int32: UInt64] = [:]
  /// Whether it read, and wrote, words never allocated in a step that no step before it touched.
  private(set) var readsUnplaced = false
  private(set) var writesUnplaced = false
  /// Whether runs that came by their memory differently were merged: any touch meets it.
  private(set) var incomparable = false

  /// The footprint of `step` of the run whose touches are `memory`.
  init(step: Int, of memory: StepMemory) {
    depth = step
    unallocated = memory.unallocated(before: step)
    var reads: Set<Place> = []
    var writes: Set<Place> = []
    for touch in memory.touches(ofStep: step) where touch.allocatedIn < step {
      if touch.word == MemoryTouch.everyWord {
        incomparable = true
      } else if touch.allocatedIn < 0, touch.place >= unallocated.placed {
        if touch.writes { writesUnplaced = true } else { readsUnplaced = true }
      } else {
        let place = Place(step: touch.allocatedIn, place: touch.place)
        if touch.writes { writes.insert(place) } else { reads.insert(place) }
        if touch.allocatedIn >= 0 { allocations[touch.allocatedIn] = memory.allocationHash(ofStep: Int(touch.allocatedIn)) ?? 0 }
      }
    }
    self.reads = reads.sorted()
    self.writes = writes.sorted()
  }

  /// Whether `step` of a run whose touches are `memory`, a run that passed through this
  /// footprint's choice point, wrote what this footprint touched or touched what it wrote.
  func meets(step: Int, of memory: StepMemory) -> Bool {
    for touch in memory.touches(ofStep: step) where touch.allocatedIn < depth {
      if incomparable || touch.word == MemoryTouch.everyWord { return true }
      if touch.allocatedIn >= 0 {
        // Memory of a step whose allocations this step touched none of cannot be its.
        guard let hash = allocations[touch.allocatedIn] else { continue }
        if memory.allocationHash(ofStep: Int(touch.allocatedIn)) != hash { return true }
      } else if touch.place >= unallocated.placed {
        if writesUnplaced || touch.writes && readsUnplaced { return true }
        continue
      } else if memory.unallocated(before: depth) != unallocated {
        return true
      }
      let place = Place(step: touch.allocatedIn, place: touch.place)
      if writes.sortedContains(place) || touch.writes && reads.sortedContains(place) { return true }
    }
    return false
  }

  /// Adds what `other`, the same step seen in another run through the same choice point,
  /// touched there.
  mutating func absorb(_ other: MemoryFootprint) {
    guard other != self else { return }
    if other.unallocated != unallocated { incomparable = true }
    for (step, hash) in other.allocations {
      if let known = allocations[step], known != hash { incomparable = true }
      allocations[step] = hash
    }
    incomparable = incomparable || other.incomparable
    readsUnplaced = readsUnplaced || other.readsUnplaced
    writesUnplaced = writesUnplaced || other.writesUnplaced
    reads = Array(Set(reads).union(other.reads)).sorted()
    writes = Array(Set(writes).union(other.writes)).sorted()
  }

  static func == (a: MemoryFootprint, b: MemoryFootprint) -> Bool {
    a.depth == b.depth && a.unallocated == b.unallocated && a.reads == b.reads && a.writes == b.writes && a.allocations == b.allocations
      && a.readsUnplaced == b.readsUnplaced && a.writesUnplaced == b.writesUnplaced && a.incomparable == b.incomparable
  }
}
