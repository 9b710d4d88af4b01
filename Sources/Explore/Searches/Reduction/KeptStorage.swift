extension Array {
  /// The array `kept` held, emptied but with its storage, leaving an empty one in its place.
  ///
  /// A pass of the reduced search's analysis takes an array it keeps from run to run this way,
  /// works on it as a local value (which nothing else holds, so it changes in place, without the
  /// exclusivity checks of a stored property), and puts it back when it is done, so that the next
  /// run's pass allocates nothing once the array has grown. Always inlined: called, it cost the
  /// analysis of a short search about 5% more than the same lines written in each pass.
  @inline(__always) static func takingStorage(of kept: inout [Element]) -> [Element] {
    var taken: [Element] = []
    swap(&taken, &kept)
    taken.removeAll(keepingCapacity: true)
    return taken
  }
}
