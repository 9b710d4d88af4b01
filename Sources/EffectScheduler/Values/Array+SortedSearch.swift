/// Binary search in an array kept in ascending order.
extension Array where Element: Comparable {
  /// The index of the first element that is not less than `value`; `count` if there is none.
  @inlinable
  package func lowerBound(of value: Element) -> Int {
    var (low, high) = (0, count)
    while low < high {
      let middle = (low + high) / 2
      if self[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Whether the array holds `value`.
  @inlinable
  package func sortedContains(_ value: Element) -> Bool {
    let index = lowerBound(of: value)
    return index < count && self[index] == value
  }
}
