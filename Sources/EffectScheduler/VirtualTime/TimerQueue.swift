/// The timers a run holds, earliest first: a binary heap ordered by deadline, then by the order
/// they were set, so a run that sets thousands of timers sets and fires each in logarithmic time.
/// It also counts the timers set and still pending at each instant, which tells which timers are
/// due at the clock's instant without reading them (``dueWindow(at:)``).
struct TimerQueue {
  private var heap: [VirtualTimer] = []
  /// For each instant timers were set for: how many were set, and how many are still pending.
  private var countsByDeadline: [Duration: (set: Int, pending: Int)] = [:]

  var isEmpty: Bool { heap.isEmpty }

  /// The timer that fires next: the earliest, the first set among those due at its instant.
  var first: VirtualTimer? { heap.first }

  /// Adds a timer; its sequence must be higher than that of every timer added before.
  mutating func insert(_ timer: VirtualTimer) {
    countsByDeadline[timer.deadline, default: (0, 0)].set += 1
    countsByDeadline[timer.deadline]!.pending += 1
    heap.append(timer)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard Self.precedes(heap[child], heap[parent]) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  /// Removes and returns the timer that fires next. The queue must not be empty.
  mutating func removeFirst() -> VirtualTimer {
    let first = heap[0]
    countsByDeadline[first.deadline]!.pending -= 1
    let last = heap.removeLast()
    if !heap.isEmpty {
      heap[0] = last
      var parent = 0
      while true {
        let left = 2 * parent + 1
        guard left < heap.count else { break }
        let right = left + 1
        let earlier = right < heap.count && Self.precedes(heap[right], heap[left]) ? right : left
        guard Self.precedes(heap[earlier], heap[parent]) else { break }
        heap.swapAt(parent, earlier)
        parent = earlier
      }
    }
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
    if !heap.isEmpty { heap.removeAll(keepingCapacity: true) }
    if !countsByDeadline.isEmpty { countsByDeadline.removeAll(keepingCapacity: true) }
  }

  /// Whether `timer` fires before `other`: an earlier deadline, or the same set first.
  private static func precedes(_ timer: VirtualTimer, _ other: VirtualTimer) -> Bool {
    timer.deadline < other.deadline || (timer.deadline == other.deadline && timer.sequence < other.sequence)
  }
}
