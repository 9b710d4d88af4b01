/// One step's touch of one 8-byte word of memory, as an instrumented run records it for the
/// partial-order reduction: which word, whether the step wrote it, and at which step the run
/// allocated the memory holding it; or an allocation, which numbers the words it hands out.
///
/// Numbers, not addresses: memory the run allocates in a step is numbered as it is allocated, the
/// rest in the order the run first touches it. Two runs that share their first steps allocate and
/// touch the same words in the same order there, at addresses the allocator may choose differently.
package struct MemoryTouch: Hashable, Sendable {
  /// The step.
  package let step: Int32
  /// The word, by the order of first touches in the run; ``everyWord`` for a range too long to
  /// follow word by word.
  package let word: Int32
  /// Whether the step wrote the word (else it only read it).
  package let writes: Bool
  /// The step whose allocation handed out the word's memory, or -1 for memory the run did not
  /// allocate in a step (the program's data, what was made before the run).
  package let allocatedIn: Int32

  /// For an allocation, how many words it numbered from ``word`` on; 0 for a touch.
  package let allocates: Int32

  /// The word of a touch of a range too long to follow word by word: it stands for every word.
  package static let everyWord: Int32 = -1

  package init(step: Int32, word: Int32, writes: Bool, allocatedIn: Int32, allocates: Int32 = 0) {
    self.step = step
    self.word = word
    self.writes = writes
    self.allocatedIn = allocatedIn
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
