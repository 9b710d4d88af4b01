import InstrumentationEntryPoints

/// An atomic operation of instrumented code, as its entry point tells it.
struct InstrumentedAtomic {
  /// The word's address; 0 for a fence.
  let address: UInt
  /// The word's size in bytes.
  let size: Int
  /// What the operation does (``InstrumentedAtomicKind``).
  let kind: InstrumentedAtomicKind
  /// The address in the code that made it.
  let caller: UInt

  init(address: UInt, size: Int, kind: Int32, caller: UInt) {
    self.address = address
    self.size = size
    self.kind = InstrumentedAtomicKind(rawValue: UInt32(bitPattern: kind))
    self.caller = caller
  }

  /// `atomic load`, `atomic compare-exchange`: what a trace's pause names.
  var name: String {
    switch kind {
    case InstrumentedAtomicLoad: "atomic load"
    case InstrumentedAtomicStore: "atomic store"
    case InstrumentedAtomicReadModifyWrite: "atomic update"
    case InstrumentedAtomicCompareExchange: "atomic compare-exchange"
    default: "atomic fence"
    }
  }
}
