/// A set of positions in a ready list, most often a handful below 64: kept as the bits of one word,
/// with a set beside it for the rare position beyond, so that a choice point costs no allocation
/// for the options it has tried and has still to try.
struct PositionSet: Equatable, ExpressibleByArrayLiteral, Sequence {
  private var bits: UInt64 = 0
  private var beyond: Set<Int> = []

  init() {}

  init(_ positions: some Sequence<Int>) {
    for position in positions { insert(position) }
  }

  init(arrayLiteral positions: Int...) { self.init(positions) }

  /// The set of `position` alone, made without the list an array literal would make.
  init(_ position: Int) { insert(position) }

  var isEmpty: Bool { bits == 0 && beyond.isEmpty }

  func contains(_ position: Int) -> Bool {
    position < 64 ? bits & (1 << UInt64(position)) != 0 : beyond.contains(position)
  }

  mutating func insert(_ position: Int) {
    if position < 64 { bits |= 1 << UInt64(position) } else { beyond.insert(position) }
  }

  mutating func remove(_ position: Int) {
    if position < 64 { bits &= ~(1 << UInt64(position)) } else { beyond.remove(position) }
  }

  mutating func formUnion(_ positions: some Sequence<Int>) {
    for position in positions { insert(position) }
  }

  /// The least position, if any.
  func min() -> Int? {
    bits != 0 ? bits.trailingZeroBitCount : beyond.min()
  }

  /// The positions, least first.
  func makeIterator() -> Iterator { Iterator(bits: bits, beyond: beyond.isEmpty ? [] : beyond.sorted()) }

  /// The positions of a set, least first: those below 64 from the word's bits, then the others.
  struct Iterator: IteratorProtocol {
    fileprivate var bits: UInt64
    fileprivate var beyond: [Int]
    fileprivate var index = 0

    mutating func next() -> Int? {
      if bits != 0 {
        let position = bits.trailingZeroBitCount
        bits &= bits - 1
        return position
      }
      guard index < beyond.count else { return nil }
      defer { index += 1 }
      return beyond[index]
    }
  }
}
