import InstrumentationEntryPoints

// A lazily made global is initialized by whichever task reads it first, inside `swift_once`, and
// every later reader goes through `swift_once` too, which orders it after the initializer with a
// lock or an atomic of the runtime's own, unseen. So on 64-bit Linux the slots through which the
// image holding this code (the program's) calls `swift_once` are pointed at a stand-in that, in a
// listening run, marks each return from it as an acquire of the predicate, and the return of the
// call that ran the initializer as a release too (`instrumentation_marking_once`): what the
// initializer wrote is ordered before every later reader, and no race is reported between them,
// while two readers stay unordered.

/// Follows the program's calls to `swift_once` in listening runs.
enum OnceCalls {
  /// Points the slots at the stand-in once, the first time it is read.
  static let claimed: Void = {
    #if os(Linux) && _pointerBitWidth(_64)
      guard let replacement = instrumentation_marking_once() else { return }
      let slots = ImportedFunctionSlot.slots(of: "swift_once", inLibraryContaining: replacement)
      SlotRedirections(slots.map { ($0, replacement) }).claim()
    #endif
  }()
}
