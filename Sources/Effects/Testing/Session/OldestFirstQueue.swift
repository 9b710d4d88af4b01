/// Items in the order they came, oldest first, such as what the program handed to the script and
/// the script has not taken yet, or the tasks the program created and has not waited for.
///
/// The oldest item is nearly always the one taken, so taking it shifts none of the others: with a
/// thousand tasks that each perform an effect before the script answers the first, shifting them
/// at each answer cost more than the hand-off itself. Taken items are cleared away in bulk once
/// they are half the storage.
struct OldestFirstQueue<Element>: Sequence {
  private var items: [Element] = []
  /// Where the items not yet taken begin.
  private var head = 0

  var isEmpty: Bool { head == items.count }

  /// The oldest item.
  var first: Element? { isEmpty ? nil : items[head] }

  mutating func append(_ item: Element) {
    items.append(item)
  }

  /// Takes the oldest item `isTaken` accepts, if any.
  mutating func removeFirst(where isTaken: (Element) -> Bool) -> Element? {
    guard !isEmpty else { return nil }
    guard isTaken(items[head]) else {
      return items[(head + 1)...].firstIndex(where: isTaken).map { items.remove(at: $0) }
    }
    let taken = items[head]
    head += 1
    if isEmpty {
      items.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 32, head * 2 >= items.count {
      items.removeFirst(head)
      head = 0
    }
    return taken
  }

  /// Takes every item `shouldBeRemoved` accepts.
  mutating func removeAll(where shouldBeRemoved: (Element) -> Bool) {
    items.removeFirst(head)
    head = 0
    items.removeAll(where: shouldBeRemoved)
  }

  /// Takes every item.
  mutating func removeAll() {
    items.removeAll()
    head = 0
  }

  func makeIterator() -> ArraySlice<Element>.Iterator {
    items[head...].makeIterator()
  }
}

extension OldestFirstQueue: Sendable where Element: Sendable {}
