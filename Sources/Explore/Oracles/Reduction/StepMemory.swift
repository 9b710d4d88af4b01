import EffectScheduler

/// What each step of an instrumented run read and wrote (``Trace/memory``), as the reduction
/// uses it: two steps of different threads where one writes a word the other touches are
/// dependent (see ``RacePass``), and an option asleep at a choice point wakes for a step that
/// touches what its step touched (see ``MemoryFootprint``).
///
/// Words are numbered in the order the run first touched them, so two runs that share their
/// first steps number the words those steps touch alike, whatever addresses the allocator gave.
/// To compare a step of one run with a step of another, each step keeps a hash of the touches
/// before it: where the two runs' hashes at a choice point differ, the numbers cannot be
/// compared, and the steps are taken as dependent.
struct StepMemory {
  /// Whether the run's memory was followed: its code was instrumented, and the trace holds it.
  private(set) var followed = false
  /// The touches, in step order, and where each step's begin in that list (one more than steps).
  private(set) var touches: [MemoryTouch] = []
  private var starts: [Int] = []
  /// By step: how many words the steps before it numbered, and a hash of their touches and
  /// allocations; one more than steps.
  private var numberedBefore: [Int32] = []
  private var hashBefore: [UInt64] = []

  /// Takes the touches of `trace`'s first `steps` steps, in place of those held.
  mutating func fill(_ trace: Trace, steps: Int) {
    touches.removeAll(keepingCapacity: true)
    starts.removeAll(keepingCapacity: true)
    numberedBefore.removeAll(keepingCapacity: true)
    hashBefore.removeAll(keepingCapacity: true)
    guard let memory = trace.memory else {
      followed = false
      return
    }
    followed = true
    var numbered: Int32 = 0
    var hash: UInt64 = 0
    var index = 0
    let all = memory.touches
    for step in 0...steps {
      starts.append(touches.count)
      numberedBefore.append(numbered)
      hashBefore.append(hash)
      guard step < steps else { break }
      while index < all.count, all[index].step < step { index += 1 }
      while index < all.count, all[index].step == step {
        let touch = all[index]
        index += 1
        // An allocation numbers its words; a touch of a word never allocated in a step, the next.
        numbered = max(numbered, touch.word + max(touch.allocates, 1))
        hash = SwapProbes.mix(hash, UInt64(UInt32(bitPattern: touch.word)) << 33 | UInt64(UInt32(bitPattern: touch.allocates)) << 1 | (touch.writes ? 1 : 0))
        if touch.allocates == 0 { touches.append(touch) }
      }
    }
  }

  /// The touches of `step`.
  func touches(ofStep step: Int) -> ArraySlice<MemoryTouch> {
    guard followed, step + 1 < starts.count else { return [] }
    return touches[starts[step]..<starts[step + 1]]
  }

  /// Whether `step` touched a range too long to follow word by word: every word.
  func touchesEveryWord(_ step: Int) -> Bool {
    touches(ofStep: step).contains { $0.word == MemoryTouch.everyWord }
  }

  /// How many words the steps before `step` numbered, and a hash of their touches.
  func prefix(before step: Int) -> (numbered: Int32, hash: UInt64) {
    guard followed, step < numberedBefore.count else { return (0, 0) }
    return (numberedBefore[step], hashBefore[step])
  }

  /// Whether `step`'s touches and allocations are those of `other`'s same step, which followed
  /// the same steps before.
  func sameTouches(atStep step: Int, as other: StepMemory) -> Bool {
    guard followed, other.followed else { return followed == other.followed }
    return step + 1 < hashBefore.count && step + 1 < other.hashBefore.count && hashBefore[step + 1] == other.hashBefore[step + 1]
      && touches(ofStep: step).elementsEqual(other.touches(ofStep: step))
  }
}
