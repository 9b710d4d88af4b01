/// The things one step touched (``StepAccesses/Object``): a handful at most, so the first four
/// are kept inline and compared one by one, with no allocation for a step that touches no more,
/// which costs far less than a set or an array of its own for each step of each run.
struct ObjectSet: Sequence, Equatable {
  private var first: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
  private var inline = 0
  /// The objects beyond the first four.
  private var more: [UInt64] = []

  init() {}

  init(_ objects: some Sequence<StepAccesses.Object>) {
    for object in objects { insert(object) }
  }

  var isEmpty: Bool { inline == 0 }

  /// Empties the set.
  mutating func removeAll() {
    first = (0, 0, 0, 0)
    inline = 0
    if !more.isEmpty { more.removeAll() }
  }

  private func member(_ index: Int) -> UInt64 {
    switch index {
    case 0: first.0
    case 1: first.1
    case 2: first.2
    case 3: first.3
    default: more[index - 4]
    }
  }

  private var count: Int { inline + more.count }

  private func contains(bits: UInt64) -> Bool {
    if first.0 == bits || first.1 == bits || first.2 == bits || first.3 == bits { return true }
    return inline == 4 && more.contains(bits)
  }

  func contains(_ object: StepAccesses.Object) -> Bool { contains(bits: object.bits) }

  mutating func insert(_ object: StepAccesses.Object) {
    let bits = object.bits
    guard !contains(bits: bits) else { return }
    switch inline {
    case 0: first.0 = bits
    case 1: first.1 = bits
    case 2: first.2 = bits
    case 3: first.3 = bits
    default:
      more.append(bits)
      return
    }
    inline += 1
  }

  /// Gives each default actor among the objects its number in `numbering`.
  mutating func renumberActors(_ numbering: inout ActorNumbering) {
    func renumber(_ bits: inout UInt64) {
      // An empty slot holds no object.
      if bits != 0, let actor = StepAccesses.Object(bits: bits).defaultActor { bits = StepAccesses.Object.actor(numbering.number(of: actor)).bits }
    }
    renumber(&first.0)
    renumber(&first.1)
    renumber(&first.2)
    renumber(&first.3)
    for index in more.indices { renumber(&more[index]) }
  }

  mutating func formUnion(_ objects: some Sequence<StepAccesses.Object>) {
    for object in objects { insert(object) }
  }

  func isSubset(of other: ObjectSet) -> Bool {
    (0..<count).allSatisfy { other.contains(bits: member($0)) }
  }

  func isDisjoint(with other: ObjectSet) -> Bool {
    for index in 0..<count where other.contains(bits: member(index)) { return false }
    return true
  }

  func makeIterator() -> Iterator { Iterator(set: self) }

  /// The objects in the order they were inserted.
  struct Iterator: IteratorProtocol {
    fileprivate let set: ObjectSet
    fileprivate var position = 0

    mutating func next() -> StepAccesses.Object? {
      guard position < set.count else { return nil }
      defer { position += 1 }
      return StepAccesses.Object(bits: set.member(position))
    }
  }

  /// Equal when they hold the same objects, in whatever order.
  static func == (a: ObjectSet, b: ObjectSet) -> Bool {
    a.count == b.count && a.isSubset(of: b)
  }
}
