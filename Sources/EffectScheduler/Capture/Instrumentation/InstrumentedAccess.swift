/// A plain read or write of instrumented code in a step of a run.
package struct InstrumentedAccess: Sendable, Equatable {
  /// The first byte's address.
  package let address: UInt
  /// How many bytes it reads or writes.
  package let size: Int
  /// Whether it writes.
  package let writes: Bool
  /// The address in the code that made it.
  package let caller: UInt
  /// The step that made it.
  package let step: Int
}
