import EffectScheduler

/// What each step of an instrumented run read and wrote (``Trace/memory``), as the reduction
/// uses it: two steps of different threads where one writes a word the other touches are
/// dependent (see ``RacePass``), and an option asleep at a choice point wakes for a step that
/// touches what its step touched (see ``MemoryFootprint``).
///
/// Within a run, words are told apart by their numbers (``MemoryTouch/word``). Between runs, by
/// their places (``MemoryTouch/place``), valid where the two runs agree on how they came by them:
/// a step's allocations, compared by a hash of their sizes, and the words touched but never
/// allocated in a step, by a hash of their touches before a choice point.
struct StepMemory {
  /// Whether the run's memory was followed: its code was instrumented, and the trace holds it.
  private(set) var followed = false
  /// The touches, in step order, and where each step's begin in that list (one more than steps).
  private(set) var touches: [MemoryTouch] = []
  private var starts: [Int] = []
  /// By step: a hash of its allocations' sizes, and one of everything it touched and allocated.
  private var allocationHashes: [UInt64] = []
  private var stepHashes: [UInt64] = []
  /// By step, and one more: how many words never allocated in a step the steps before it placed,
  /// and a hash of their touches of such words.
  private var unallocatedBefore: [(placed: Int64, hash: UInt64)] = []

  /// Takes the touches of `trace`'s first `steps` steps, in place of those held.
  mutating func fill(_ trace: Trace, steps: Int) {
    touches.removeAll(keepingCapacity: true)
    starts.removeAll(keepingCapacity: true)
    allocationHashes.removeAll(keepingCapacity: true)
    stepHashes.removeAll(keepingCapacity: true)
    unallocatedBefore.removeAll(keepingCapacity: true)
    guard let memory = trace.memory else {
      followed = false
      return
    }
    followed = true
    var placed: Int64 = 0
    var unallocatedHash: UInt64 = 0
    var index = 0
    let all = memory.touches
    for step in 0...steps {
      starts.append(touches.count)
      unallocatedBefore.append((placed, unallocatedHash))
      guard step < steps else { break }
      var allocationHash: UInt64 = 0
      var stepHash: UInt64 = 0
      while index < all.count, all[index].step < step { index += 1 }
      while index < all.count, all[index].step == step {
        let touch = all[index]
        index += 1
        stepHash = SwapProbes.mix(stepHash, UInt64(bitPattern: touch.place) &* 31 &+ UInt64(UInt32(bitPattern: touch.allocatedIn)) << 1 | (touch.writes ? 1 : 0))
        if touch.allocates > 0 {
          allocationHash = SwapProbes.mix(allocationHash, UInt64(UInt32(bitPattern: touch.allocates)))
          stepHash = SwapProbes.mix(stepHash, UInt64(UInt32(bitPattern: touch.allocates)))
          continue
        }
        touches.append(touch)
        if touch.allocatedIn < 0, touch.word != MemoryTouch.everyWord {
          placed = max(placed, touch.place + 1)
          unallocatedHash = SwapProbes.mix(unallocatedHash, UInt64(bitPattern: touch.place) << 1 | (touch.writes ? 1 : 0))
        }
      }
      allocationHashes.append(allocationHash)
      stepHashes.append(stepHash)
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

  /// A hash of the sizes of `step`'s allocations, in order.
  func allocationHash(ofStep step: Int) -> UInt64? {
    step >= 0 && step < allocationHashes.count ? allocationHashes[step] : nil
  }

  /// How many words never allocated in a step the steps before `step` placed, and a hash of
  /// their touches of such words.
  func unallocated(before step: Int) -> (placed: Int64, hash: UInt64) {
    guard followed, step < unallocatedBefore.count else { return (0, 0) }
    return unallocatedBefore[step]
  }

  /// Whether `step`'s touches and allocations are those of `other`'s same step.
  func sameTouches(atStep step: Int, as other: StepMemory) -> Bool {
    guard followed, other.followed else { return followed == other.followed }
    return step < stepHashes.count && step < other.stepHashes.count && stepHashes[step] == other.stepHashes[step]
      && touches(ofStep: step).elementsEqual(other.touches(ofStep: step))
  }
}
