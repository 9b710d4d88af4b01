/// One step's touch of one 8-byte word of memory, as an instrumented run records it for the
/// partial-order reduction: which word, whether the step wrote it, and where its memory came
/// from; or an allocation in a step.
///
/// A word has two names. ``word`` numbers it within the run, in the order the run allocated or
/// first touched it. ``place`` names it so that another run may name the same memory alike,
/// whatever addresses the allocator chose there: memory a step allocated by that step, the
/// allocation's place among the step's own and the word's among the block's; other memory (the
/// program's data, what was made before the run) by the order the run first touched such words.
package struct MemoryTouch: Hashable, Sendable {
  /// The step.
  package let step: Int32
  /// The word, numbered within the run; ``everyWord`` for a range too long to follow word by
  /// word. For an allocation, the first of the words it numbered.
  package let word: Int32
  /// Whether the step wrote the word (else it only read it).
  package let writes: Bool
  /// The step whose allocation handed out the word's memory, or -1 for memory the run did not
  /// allocate in a step.
  package let allocatedIn: Int32
  /// For memory allocated in a step: the allocation's number among that step's, in the high 32
  /// bits, and the word's among the block's; for other memory, the order of its first touch among
  /// such words. For an allocation, its number among the step's.
  package let place: Int64
  /// For an allocation, how many words it numbered from ``word`` on; 0 for a touch.
  package let allocates: Int32

  /// The word of a touch of a range too long to follow word by word: it stands for every word.
  package static let everyWord: Int32 = -1

  package init(step: Int32, word: Int32, writes: Bool, allocatedIn: Int32, place: Int64, allocates: Int32 = 0) {
    self.step = step
    self.word = word
    self.writes = writes
    self.allocatedIn = allocatedIn
    self.place = place
    self.allocates = allocates
  }
}

/// A run's touches of memory, in order, as its trace keeps them: no part of what makes two traces
/// equal, since which words the runtime's own code touches first in a process's first run (the
/// metadata it fills once, say) may differ from the replay's, while the run did the same.
package struct MemoryTouches: Hashable, Sendable {
  package var touches: [MemoryTouch]

  package init(_ touches: [MemoryTouch]) { self.touches = touches }

  package static func == (_: MemoryTouches, _: MemoryTouches) -> Bool { true }
  package func hash(into hasher: inout Hasher) {}
}
