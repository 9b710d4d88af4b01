/// What the program handed to the script and the script has not taken yet, oldest first.
///
/// The script nearly always takes the oldest item, so taking it shifts none of the others: with a
/// thousand tasks that each perform an effect before the script answers the first, shifting them
/// at each answer cost more than the hand-off itself. Taken items are cleared away in bulk once
/// they are half the storage.
struct PendingQueue: Sequence {
  private var items: [PendingEffect] = []
  /// Where the items not yet taken begin.
  private var head = 0

  var isEmpty: Bool { head == items.count }

  /// The oldest item.
  var first: PendingEffect? { isEmpty ? nil : items[head] }

  mutating func append(_ pending: PendingEffect) {
    items.append(pending)
  }

  /// Takes the item numbered `number` (``PendingEffect/number``), if it is still here.
  mutating func remove(number: Int) {
    guard !isEmpty else { return }
    if items[head].number == number {
      head += 1
      if isEmpty {
        items.removeAll(keepingCapacity: true)
        head = 0
      } else if head >= 32, head * 2 >= items.count {
        items.removeFirst(head)
        head = 0
      }
    } else if let index = items[head...].firstIndex(where: { $0.number == number }) {
      items.remove(at: index)
    }
  }

  /// Takes every item `shouldBeRemoved` accepts.
  mutating func removeAll(where shouldBeRemoved: (PendingEffect) -> Bool) {
    items.removeFirst(head)
    head = 0
    items.removeAll(where: shouldBeRemoved)
  }

  /// Takes every item.
  mutating func removeAll() {
    items.removeAll()
    head = 0
  }

  func makeIterator() -> ArraySlice<PendingEffect>.Iterator {
    items[head...].makeIterator()
  }
}
