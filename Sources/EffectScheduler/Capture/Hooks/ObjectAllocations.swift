// `Synchronization`'s `Mutex` and `Atomic` synchronize inside a step, in code inlined into the
// program, which only an instrumented build shows the scheduler: elsewhere their critical sections
// and atomic operations run whole within a step, and a claim that rests on that must say so. Both
// are noncopyable, so a program that shares one between tasks keeps it in an object, an instance
// of a class (or an actor) one of whose stored properties, or a superclass's, is noncopyable. The
// compiler records such a property's type only as "noncopyable" off Darwin, so that is what is
// looked for: objects of such classes that a run's steps make, declared outside this library
// (whose drop-ins are controlled). A `Mutex` kept in a global, or made before the run, is not seen.
//
// On 64-bit Linux the classes of the image holding this code (the program's, as SwiftPM links a
// test or an executable) are read once from its type records. Where any holds a noncopyable
// value, the slot through which the image calls `swift_allocObject` is pointed at a function that,
// on a driving thread, notes a step's making an object of one of them: a check of the object's
// class against those few, so that other allocations cost one comparison more. A run in which
// instrumented code told of its operations is taken to have made them there, and claims nothing of
// it (see `RunRecord.madeNoncopyableHolders`). Elsewhere nothing is noted, and the claims say that
// locks and atomics go unseen (`ExplorationAssumption.locksUnseen`).

#if os(Linux) && _pointerBitWidth(_64)
  import Glibc
  import InstrumentationEntryPoints

  /// Makes the program's making of objects that hold noncopyable values visible to the run whose
  /// step makes them.
  enum ObjectAllocations {
    /// The slots through which the image holding this code calls `swift_allocObject`, pointed at
    /// the noting function once, the first time it is read, where the image has such classes.
    static let claimed: Void = {
      guard realAllocate != nil, !holderDescriptors.isEmpty else { return }
      let replacement = unsafeBitCast(notingAllocate, to: UnsafeRawPointer.self)
      let slots = ImportedFunctionSlot.slots(of: "swift_allocObject", inLibraryContaining: replacement)
      SlotRedirections(slots.map { ($0, replacement) }).claim()
    }()

    /// The context descriptors of the image's classes, outside this library, with a stored
    /// property of a noncopyable type, in ascending order.
    private static let holderDescriptors: [UInt] = ClassLayout.classesHoldingNoncopyables().sorted()

    /// `swift_allocObject(metadata, size, alignment mask)`, whose arguments and result travel in
    /// the same registers under the Swift and C calling conventions.
    private typealias Allocate = @convention(c) (UnsafeRawPointer?, Int, Int) -> UnsafeMutableRawPointer?

    private static let realAllocate: Allocate? = runtimeFunction("swift_allocObject")

    /// The allocation, then, for an object of a class that holds a noncopyable value, made on a
    /// driving thread of a run, the note.
    private static let notingAllocate: Allocate = { metadata, size, alignmentMask in
      let object = realAllocate!(metadata, size, alignmentMask)
      if RuntimeHooks.runsUnderWay.load(ordering: .relaxed) > 0, let metadata, holdsNoncopyable(metadata),
        let scheduler = DeterministicScheduler.controllingCallingThread
      {
        scheduler.lockWatch.madeNoncopyableHolders = true
      }
      return object
    }

    /// Whether the class whose metadata is at `metadata`, or a superclass, is one of
    /// ``holderDescriptors``. Class metadata on Linux begins with the kind 0; its context
    /// descriptor is at offset 40, its superclass's metadata at 8.
    private static func holdsNoncopyable(_ metadata: UnsafeRawPointer) -> Bool {
      var current: UnsafeRawPointer? = metadata
      while let classMetadata = current, classMetadata.load(as: UInt.self) == 0 {
        guard let descriptor = classMetadata.load(fromByteOffset: 40, as: UnsafeRawPointer?.self) else { return false }
        if holderDescriptors.sortedContains(UInt(bitPattern: descriptor)) { return true }
        current = classMetadata.load(fromByteOffset: 8, as: UnsafeRawPointer?.self)
      }
      return false
    }
  }

  /// What the type records and context descriptors of the image say of its classes' stored
  /// properties, read as the runtime lays them out on 64-bit Linux.
  enum ClassLayout {
    /// The modules whose classes are this library's own: its drop-in locks and atomics are
    /// scheduling points, and its other state is no program's.
    private static let ownModules: [StaticString] = ["EffectScheduler", "Effects", "Explore", "ExploreTesting"]

    /// The context descriptors of the image's classes, outside this library, that have a stored
    /// property whose type the compiler recorded only as noncopyable.
    static func classesHoldingNoncopyables() -> [UInt] {
      var count = 0
      guard let records = instrumentation_type_records(&count) else { return [] }
      var found: [UInt] = []
      for index in 0..<count {
        // A relative reference whose two low bits say whether it points at the descriptor or at
        // a pointer to it.
        let record = UnsafeRawPointer(records + index)
        let offset = Int(record.load(as: Int32.self))
        let target = record + (offset & ~3)
        guard let descriptor = offset & 3 == 0 ? target : target.load(as: UnsafeRawPointer?.self) else { continue }
        // Kind 16: a class.
        guard descriptor.load(as: UInt32.self) & 0x1F == 16, storesNoncopyable(descriptor), !isOwn(descriptor) else { continue }
        found.append(UInt(bitPattern: descriptor))
      }
      return found
    }

    /// Whether a field of the nominal type described at `descriptor` has a type the compiler
    /// recorded only as noncopyable: a mangled name that begins with the byte 0x09.
    private static func storesNoncopyable(_ descriptor: UnsafeRawPointer) -> Bool {
      guard let fields = relative(descriptor + 16) else { return false }
      let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
      let count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
      guard recordSize >= 12 else { return false }
      for index in 0..<count {
        let record = fields + 16 + index * recordSize
        if let typeName = relative(record + 4), typeName.load(as: UInt8.self) == 0x09 { return true }
      }
      return false
    }

    /// Whether the module that declares the context described at `descriptor` is this library's.
    private static func isOwn(_ descriptor: UnsafeRawPointer) -> Bool {
      var context: UnsafeRawPointer? = descriptor
      for _ in 0..<16 {
        guard let current = context else { return false }
        if current.load(as: UInt32.self) & 0x1F == 0 {
          guard let name = relative(current + 8) else { return false }
          let module = String(cString: name.assumingMemoryBound(to: CChar.self))
          return ownModules.contains { $0.description == module }
        }
        context = indirectableRelative(current + 4)
      }
      return false
    }

    /// The address a 32-bit relative offset at `field` points to, or `nil` for none.
    private static func relative(_ field: UnsafeRawPointer) -> UnsafeRawPointer? {
      let offset = field.load(as: Int32.self)
      return offset == 0 ? nil : field + Int(offset)
    }

    /// Like ``relative(_:)``, where a set lowest bit means the target holds the address.
    private static func indirectableRelative(_ field: UnsafeRawPointer) -> UnsafeRawPointer? {
      let offset = field.load(as: Int32.self)
      guard offset != 0 else { return nil }
      let target = field + Int(offset & ~1)
      return offset & 1 == 0 ? target : target.load(as: UnsafeRawPointer?.self)
    }
  }
#endif
