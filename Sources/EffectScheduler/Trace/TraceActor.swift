/// A default actor whose jobs ran in a run, listed in ``Trace/actors`` in the order its first job
/// ran.
///
/// The trace names it by its type, with a number when the run had several actors of that type:
/// `Account#1`, `Account#2`, numbered in order of first appearance, so the names are the same on
/// every run of the same program and schedule.
public struct TraceActor: Hashable, Sendable {
  /// The actor's dynamic type. Kept as an identity and named only when a trace is printed, so a
  /// run pays nothing for names nobody reads.
  private let type: ObjectIdentifier

  /// Creates the entry of an actor of type `type`.
  package init(type: Any.Type) {
    self.type = ObjectIdentifier(type)
  }

  /// The actor's type name without its module or enclosing types: `Account`.
  public var typeName: String {
    // A metatype is the type's metadata pointer, which is what the identifier holds.
    _typeName(unsafeBitCast(type, to: Any.Type.self), qualified: false)
  }
}

extension Trace {
  /// The name of the actor at `index` in ``actors``: its type name, followed by `#n` when the run
  /// had several actors of that type, the n-th of them to appear.
  public func actorName(_ index: Int) -> String {
    guard actors.indices.contains(index) else { return "actor" }
    let typeName = actors[index].typeName
    let sameType = actors.indices.filter { actors[$0].typeName == typeName }
    guard sameType.count > 1, let number = sameType.firstIndex(of: index) else { return typeName }
    return "\(typeName)#\(number + 1)"
  }
}
