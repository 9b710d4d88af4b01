// Data races in the steps of instrumented code, found in the run the scheduler chose: two
// accesses to the same memory by different tasks, at least one a write, that nothing orders. What
// orders them is what the run saw synchronize, each as a happens-before edge:
// - a task's own steps, one after another;
// - the step that made a job ready (a spawn, a continuation resumed, a task woken by another's
//   completion, a hop onto an actor) before the job's next step;
// - a task's completion before what its waiter does once the wait is over: the step that
//   completes it makes the waiter ready, or, where the waiter finds it complete and goes on, the
//   concurrency runtime marks the completion's release and the wait's acquire. Not before
//   anything else its parent or maker does: a task that resumed its maker and then wrote what the
//   maker reads races with that read, though it completed before;
// - two steps that touch one lock, atomic word or actor: the later after everything the earlier
//   one's task has done by then. A release the run may not see (see
//   DeterministicScheduler+InstrumentedAtomics.swift) thus orders too much rather than too
//   little: a race ordered only through a lock or atomic is missed, never made up.
// Each run's epochs are its steps, split where a step makes a job ready, so that what a task does
// after starting another is not ordered before the other. Memory on the calling thread's stack,
// where the steps of several tasks run one after another, is never a race.

/// The race detection of one run: vector clocks by task, the last task that touched each object,
/// and, by 8-byte word, the last write and the reads since.
struct RaceDetector {
  /// One access, as the word's history keeps it.
  struct Access {
    let thread: Int
    let epoch: UInt32
    let step: Int
    let caller: UInt
    let writes: Bool
  }

  /// The history of one 8-byte word.
  private struct Word {
    var write: Access?
    var reads: [Access] = []
    /// Where touches are recorded: the word's number in the run, or -1 before its first touch;
    /// the last step that read it and that wrote it; the step whose allocation handed it out, and
    /// its place (see ``MemoryTouch``).
    var number: Int32 = -1
    var readIn: Int32 = -1
    var wroteIn: Int32 = -1
    var allocatedIn: Int32 = -1
    var place: Int64 = -1

    /// Adds `access` of `thread`, whose clock is `clock`; returns the earlier access it races
    /// with instead, if any: a write, or for a write a read, of another thread that the clock does
    /// not come after.
    mutating func record(_ access: Access, by thread: Int, after clock: VectorClock) -> Access? {
      if let write, write.thread != thread, write.epoch > clock[write.thread] { return write }
      if access.writes {
        if let read = reads.first(where: { $0.thread != thread && $0.epoch > clock[$0.thread] }) { return read }
        write = access
        reads.removeAll(keepingCapacity: true)
      } else if let index = reads.firstIndex(where: { $0.thread == thread }) {
        reads[index] = access
      } else {
        reads.append(access)
      }
      return nil
    }
  }

  /// The threads of the run: by a task's number, or, for a step of no task, by `-1 - step`.
  private var threadIndex: [Int: Int] = [:]
  private var threadKeys: [Int] = []
  private var clocks: [VectorClock] = []
  /// What the steps that made each job ready had done, by the job's address, until it runs.
  private var readyClocks: [UInt: VectorClock] = [:]
  /// The threads that touched each object, by its address.
  private var touchers: [UInt: [Int]] = [:]
  /// What the releases of each address the concurrency runtime marked came after.
  private var released: [UInt: VectorClock] = [:]
  private var words = AddressTable<Word>()
  /// The step whose thread is ``current``.
  private(set) var currentStep = -1
  private var current = 0
  /// The actor the current thread's code runs on, if any.
  private var currentActor: UInt?
  /// The first race found in the run.
  private(set) var found: (first: Access, second: Access, address: UInt)?
  /// Whether each step's touches of memory are recorded (``touches``), for the reduction.
  var recordsTouches = false
  /// Each step's touches of memory, in order, once a word a step and kind.
  private(set) var touches: [MemoryTouch] = []
  private var numbered: Int32 = 0
  /// How many words not allocated in a step the run touched; the step of the last allocation,
  /// and how many that step made.
  private var touchedUnallocated: Int64 = 0
  private var allocationStep: Int32 = -1
  private var allocationsInStep: Int64 = 0
  /// The blocks allocated in the run too long to mark word by word, with the step, first number
  /// and place of each.
  private var longBlocks: [(start: UInt, end: UInt, step: Int32, number: Int32, place: Int64)] = []

  /// Forgets the run, keeping the storage.
  mutating func clear() {
    guard currentStep >= 0 || !threadKeys.isEmpty else { return }
    threadIndex.removeAll(keepingCapacity: true)
    threadKeys.removeAll(keepingCapacity: true)
    clocks.removeAll(keepingCapacity: true)
    readyClocks.removeAll(keepingCapacity: true)
    touchers.removeAll(keepingCapacity: true)
    released.removeAll(keepingCapacity: true)
    words.removeAll()
    touches.removeAll(keepingCapacity: true)
    longBlocks.removeAll(keepingCapacity: true)
    numbered = 0
    touchedUnallocated = 0
    allocationStep = -1
    allocationsInStep = 0
    currentStep = -1
    current = 0
    currentActor = nil
    found = nil
  }

  /// The index of the thread `key`, made on first sight.
  private mutating func index(of key: Int) -> Int {
    if let index = threadIndex[key] { return index }
    let index = threadKeys.count
    threadIndex[key] = index
    threadKeys.append(key)
    var clock = VectorClock()
    clock.tick(index)
    clocks.append(clock)
    return index
  }

  /// The task whose number is `key`, if the thread is one.
  func task(ofThread thread: Int) -> Int? {
    threadKeys[thread] >= 0 ? threadKeys[thread] : nil
  }

  /// Makes the thread `key`, running in `step`, the current one, when the step does something
  /// the detector follows: what it does next is a new epoch; the step's first comes after what
  /// made its job, at `job`, ready; on an actor, whose job may run several tasks' work one after
  /// another, each comes after the actor's work before.
  mutating func enter(step: Int, thread key: Int, job: UInt, actor: UInt?) {
    // Most accesses are of the current thread, in the current step, on the same actor.
    if step == currentStep, actor == currentActor, !threadKeys.isEmpty, threadKeys[current] == key { return }
    let thread = index(of: key)
    guard step != currentStep || thread != current || actor != currentActor else { return }
    let firstOfTheStep = step != currentStep
    currentStep = step
    current = thread
    currentActor = actor
    clocks[current].tick(current)
    if firstOfTheStep, let made = readyClocks.removeValue(forKey: job) { clocks[current].join(made) }
    if let actor { touch(actor) }
  }

  /// The concurrency runtime released `address` in the current step: whatever acquires it later
  /// comes after what the current thread did so far.
  mutating func release(_ address: UInt) {
    guard currentStep >= 0 else { return }
    released[address, default: VectorClock()].join(clocks[current])
    clocks[current].tick(current)
  }

  /// Whether the run released `address` (see ``release(_:)``).
  func wasReleased(_ address: UInt) -> Bool { released[address] != nil }

  /// The concurrency runtime acquired `address` for the thread `key` (the task about to run,
  /// when `address` is its job, else the current thread): it comes after every release of it.
  mutating func acquire(_ address: UInt, into key: Int?) {
    guard currentStep >= 0, let made = released[address] else { return }
    let thread = key.map { index(of: $0) } ?? current
    clocks[thread].join(made)
  }

  /// The current step made the job at `job` ready: its next step comes after what this one did so
  /// far, not what it does next.
  mutating func madeReady(_ job: UInt) {
    guard currentStep >= 0 else { return }
    readyClocks[job, default: VectorClock()].join(clocks[current])
    clocks[current].tick(current)
  }

  /// The current step touched the object at `address`: it comes after everything each thread
  /// that touched it before had done by now, whose release of it may not have been seen.
  mutating func touch(_ address: UInt) {
    guard currentStep >= 0 else { return }
    var threads = touchers.removeValue(forKey: address) ?? []
    for thread in threads where thread != current { clocks[current].join(clocks[thread]) }
    if !threads.contains(current) { threads.append(current) }
    touchers[address] = threads
  }

  /// The allocator handed out the `size` bytes at `start` in `allocatingStep`: what was
  /// recorded of that memory was another block's, freed since, and the allocator orders its use
  /// before this one. Where touches are recorded, its words are numbered and placed as allocated
  /// (see ``MemoryTouch``).
  mutating func forget(from start: UInt, size: Int, inStep allocatingStep: Int) {
    guard size > 0, allocatingStep >= 0 else { return }
    let first = start & ~7
    let end = start + UInt(size)
    let words = (end - first + 7) / 8
    if recordsTouches {
      // Numbered as allocated, and placed by the allocation's number among the step's.
      let step = Int32(truncatingIfNeeded: allocatingStep)
      if step != allocationStep {
        allocationStep = step
        allocationsInStep = 0
      }
      let place = allocationsInStep << 32
      allocationsInStep += 1
      let count = Int32(truncatingIfNeeded: words)
      touches.append(MemoryTouch(step: step, word: numbered, writes: true, allocatedIn: step, place: place >> 32, allocates: count))
      defer { numbered += count }
      if words <= Self.wordsFollowed {
        var word = first
        var offset: Int32 = 0
        while word < end {
          self.words.set(word, Word(number: numbered + offset, allocatedIn: step, place: place | Int64(offset)))
          word += 8
          offset += 1
        }
        return
      }
      longBlocks.append((first, end, step, numbered, place))
    }
    guard self.words.count > 0 else { return }
    // A large block is looked for among the words recorded, a small one word by word.
    if words > self.words.count {
      self.words.removeAll(in: first..<end)
      return
    }
    var word = first
    while word < end {
      self.words.remove(word)
      word += 8
    }
  }

  /// The most words of one access, or one allocation, followed word by word where touches are
  /// recorded: a longer access is recorded as one of every word.
  static let wordsFollowed: UInt = 512

  /// Checks an access of the current step to `size` bytes at `address` against the history of
  /// the words it covers, and adds it. Stops once a race is found.
  mutating func access(address: UInt, size: Int, writes: Bool, caller: UInt) {
    guard currentStep >= 0, found == nil, size > 0 else { return }
    let this = Access(thread: current, epoch: clocks[current][current], step: currentStep, caller: caller, writes: writes)
    let first = address & ~7
    let last = (address + UInt(size) - 1) & ~7
    var word = first
    // A copy of a large buffer is checked by its first words, and, where touches are recorded,
    // recorded as a touch of every word when longer than those followed.
    if recordsTouches, (last - first) / 8 >= Self.wordsFollowed {
      touches.append(MemoryTouch(step: Int32(truncatingIfNeeded: currentStep), word: MemoryTouch.everyWord, writes: writes, allocatedIn: -1, place: -1))
    }
    let limit = first + 8 * (recordsTouches ? Self.wordsFollowed : 16)
    while word <= last, word < limit {
      check(this, at: word, address: address)
      word += 8
    }
  }

  private mutating func check(_ this: Access, at key: UInt, address: UInt) {
    // Changed in place: one lookup, and no copy of the word's reads.
    let current = current
    let slot = words.slot(of: key) {
      guard let block = longBlocks.last(where: { $0.start <= key && key < $0.end }) else { return Word() }
      let offset = (key - block.start) / 8
      return Word(number: block.number + Int32(truncatingIfNeeded: offset), allocatedIn: block.step, place: block.place | Int64(offset))
    }
    let race: Access? = clocks.withUnsafeBufferPointer { clocks in
      words[slot: slot].record(this, by: current, after: clocks[current])
    }
    if recordsTouches, let touch = Self.touch(by: this, of: &words[slot: slot], numbering: &numbered, placing: &touchedUnallocated) {
      touches.append(touch)
    }
    if let race { found = (race, this, address) }
  }

  /// The touch of `word` by `this` access to record, once a step and kind, if not recorded yet;
  /// a word touched for the first time takes the next number, and, unless allocated in a step,
  /// the next place among such words.
  private static func touch(
    by this: Access, of word: inout Word, numbering numbered: inout Int32, placing touchedUnallocated: inout Int64
  ) -> MemoryTouch? {
    let step = Int32(truncatingIfNeeded: this.step)
    if word.number < 0 {
      word.number = numbered
      numbered += 1
    }
    if word.place < 0 {
      word.place = touchedUnallocated
      touchedUnallocated += 1
    }
    if this.writes {
      guard word.wroteIn != step else { return nil }
      word.wroteIn = step
    } else {
      guard word.readIn != step, word.wroteIn != step else { return nil }
      word.readIn = step
    }
    return MemoryTouch(step: step, word: word.number, writes: this.writes, allocatedIn: word.allocatedIn, place: word.place)
  }
}
