/// How a ``BinaryHeap`` orders its elements.
package protocol HeapOrder {
  associatedtype Element
  /// Whether `element` comes out of the heap before `other`.
  static func precedes(_ element: Element, _ other: Element) -> Bool
}

/// A binary heap: the element that comes out first on top, each element added and taken out in
/// logarithmic time. The virtual clock's timers (``TimerQueue``) and PCT's ready jobs are kept in
/// one.
package struct BinaryHeap<Order: HeapOrder> {
  @usableFromInline package var elements: [Order.Element] = []

  @inlinable package init() {}

  @inlinable package var isEmpty: Bool { elements.isEmpty }
  @inlinable package var count: Int { elements.count }
  /// The element that comes out first.
  @inlinable package var first: Order.Element? { elements.first }

  /// Adds `element`.
  @inlinable
  package mutating func insert(_ element: Order.Element) {
    elements.append(element)
    var child = elements.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard Order.precedes(elements[child], elements[parent]) else { break }
      elements.swapAt(child, parent)
      child = parent
    }
  }

  /// Takes out and returns the element that comes out first. The heap must not be empty.
  @inlinable
  @discardableResult
  package mutating func removeFirst() -> Order.Element {
    let first = elements[0]
    let last = elements.removeLast()
    guard !elements.isEmpty else { return first }
    elements[0] = last
    var parent = 0
    while true {
      let left = 2 * parent + 1
      guard left < elements.count else { break }
      let right = left + 1
      let child = right < elements.count && Order.precedes(elements[right], elements[left]) ? right : left
      guard Order.precedes(elements[child], elements[parent]) else { break }
      elements.swapAt(child, parent)
      parent = child
    }
    return first
  }

  /// Empties the heap, keeping its storage.
  @inlinable
  package mutating func removeAll() {
    if !elements.isEmpty { elements.removeAll(keepingCapacity: true) }
  }
}
