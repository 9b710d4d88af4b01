/// The things one step touched (``StepAccesses/Object``): a handful at most, so kept in a plain
/// array and compared one by one, which costs far less than hashing them into a set.
struct ObjectSet: Sequence, Equatable {
  private var members: [StepAccesses.Object] = []

  init() {}

  init(_ objects: some Sequence<StepAccesses.Object>) {
    for object in objects { insert(object) }
  }

  var isEmpty: Bool { members.isEmpty }

  func contains(_ object: StepAccesses.Object) -> Bool { members.contains(object) }

  mutating func insert(_ object: StepAccesses.Object) {
    guard !members.contains(object) else { return }
    // Room for the handful a step touches, in one allocation.
    if members.isEmpty { members.reserveCapacity(4) }
    members.append(object)
  }

  mutating func formUnion(_ objects: some Sequence<StepAccesses.Object>) {
    for object in objects { insert(object) }
  }

  func isDisjoint(with other: ObjectSet) -> Bool {
    !members.contains { other.members.contains($0) }
  }

  func makeIterator() -> IndexingIterator<[StepAccesses.Object]> { members.makeIterator() }

  /// Equal when they hold the same objects, in whatever order.
  static func == (a: ObjectSet, b: ObjectSet) -> Bool {
    a.members.count == b.members.count && a.members.allSatisfy(b.members.contains)
  }
}
