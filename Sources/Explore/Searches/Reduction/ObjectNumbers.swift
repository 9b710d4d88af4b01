/// Numbers the objects of one run's steps in the order they first appear, without hashing: each
/// kind of ``StepAccesses/Object`` keeps its numbers in an array by the object's own index.
struct ObjectNumbers {
  /// By kind, then the object's index within its kind: its number, or -1.
  private var byKind: [[Int]] = Array(repeating: [], count: 12)
  /// The numbers of the instants timers are due at, which are no small indices.
  private var byInstant: [Int: Int] = [:]
  /// The objects numbered, in order.
  private var numbered: [StepAccesses.Object] = []

  var count: Int { numbered.count }

  /// The number of `object`, the next one when it is new.
  mutating func number(of object: StepAccesses.Object) -> (number: Int, isNew: Bool) {
    let (kind, index) = (Int(object.kind.rawValue), object.index)
    if object.kind == .timersDue {
      if let number = byInstant[index] { return (number, false) }
      byInstant[index] = count
    } else {
      if index >= byKind[kind].count { byKind[kind].append(contentsOf: repeatElement(-1, count: index + 1 - byKind[kind].count)) }
      if byKind[kind][index] >= 0 { return (byKind[kind][index], false) }
      byKind[kind][index] = count
    }
    numbered.append(object)
    return (count - 1, true)
  }

  /// Forgets the objects numbered `count` and after.
  mutating func forget(downTo count: Int) {
    while numbered.count > count {
      let object = numbered.removeLast()
      if object.kind == .timersDue { byInstant[object.index] = nil } else { byKind[Int(object.kind.rawValue)][object.index] = -1 }
    }
  }
}
