/// The timers a run holds, earliest first: a binary heap ordered by deadline, then by the order
/// they were set, so a run that sets thousands of timers sets and fires each in logarithmic time.
/// It also counts the timers set and still pending at each instant, which tells which timers are
/// due at the clock's instant without reading them (``dueWindow(at:)``).
struct TimerQueue {
  private var heap = BinaryHeap<Firing>()
  /// For each instant timers were set for: how many were set, and how many are still pending.
  private var countsByDeadline: [Duration: (set: Int, pending: Int)] = [:]

  var isEmpty: Bool { heap.isEmpty }

  /// The timer that fires next: the earliest, the first set among those due at its instant.
  var first: VirtualTimer? { heap.first }

  /// Adds a timer; its sequence must be higher than that of every timer added before.
  mutating func insert(_ timer: VirtualTimer) {
    countsByDeadline[timer.deadline, default: (0, 0)].set += 1
    countsByDeadline[timer.deadline]!.pending += 1
    heap.insert(timer)
  }

  /// Removes and returns the timer that fires next. The queue must not be empty.
  mutating func removeFirst() -> VirtualTimer {
    let first = heap.removeFirst()
    countsByDeadline[first.deadline]!.pending -= 1
    return first
  }

  /// The timers due at `instant` that are still pending, when they are the first to fire: those
  /// set for it, in the order they were set, from the one numbered `lowerBound` (those before it
  /// have fired) to the last set.
  func dueWindow(at instant: Duration) -> Range<Int> {
    guard let counts = countsByDeadline[instant] else { return 0..<0 }
    return (counts.set - counts.pending)..<counts.set
  }

  /// Empties the queue, returning the timers' jobs in the order they would have fired.
  mutating func removeAllInOrder() -> [UnownedJob] {
    var jobs: [UnownedJob] = []
    jobs.reserveCapacity(heap.count)
    while !heap.isEmpty { jobs.append(removeFirst().job) }
    removeAll()
    return jobs
  }

  /// Empties the queue, keeping its storage for the next run.
  mutating func removeAll() {
    heap.removeAll()
    if !countsByDeadline.isEmpty { countsByDeadline.removeAll(keepingCapacity: true) }
  }

  /// The order timers fire in: an earlier deadline first, or, at the same deadline, the one set first.
  enum Firing: HeapOrder {
    static func precedes(_ timer: VirtualTimer, _ other: VirtualTimer) -> Bool {
      timer.deadline < other.deadline || (timer.deadline == other.deadline && timer.sequence < other.sequence)
    }
  }
}
