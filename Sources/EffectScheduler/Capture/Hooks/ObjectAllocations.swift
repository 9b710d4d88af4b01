// `Synchronization`'s `Mutex` and `Atomic` synchronize inside a step, in code inlined into the
// program, which only an instrumented build shows the scheduler: elsewhere their critical sections
// and atomic operations run whole within a step, and a claim that rests on that must say so. Both
// are noncopyable, so a program that shares one between tasks keeps it in an object, an instance
// of a class (or an actor) one of whose stored properties, or a superclass's, is noncopyable. The
// compiler records such a property's type only as "noncopyable" off Darwin, so that is what is
// looked for: objects of such classes that a run's steps make, in code outside this library (whose
// drop-ins are controlled). A `Mutex` kept in a global, or made before the run, is not seen.
//
// On 64-bit Linux the slot through which the image holding this code (the program's, as SwiftPM
// links a test or an executable) calls `swift_allocObject` is pointed at a function that, on a
// driving thread, notes the classes of the objects the step made. A run in which instrumented
// code told of its operations is taken to have made them there, and claims nothing of it (see
// `RunRecord.madeNoncopyableHolders`). Elsewhere nothing is noted, and the claims say that locks
// and atomics go unseen (`ExplorationAssumption.locksUnseen`).

#if os(Linux) && _pointerBitWidth(_64)
  import Glibc

  extension DeterministicScheduler {
    /// The running step made an object whose class metadata is at `metadata`.
    func noteObjectMade(metadata: UInt) {
      // The note's own storage, allocated while it is made, is no program's.
      guard !lockWatch.madeNoncopyableHolders, !lockWatch.notingObject else { return }
      if let known = lockWatch.noncopyableHolders[metadata] {
        lockWatch.madeNoncopyableHolders = known
        return
      }
      lockWatch.notingObject = true
      defer { lockWatch.notingObject = false }
      let holds = ClassLayout.holdsNoncopyable(metadata: metadata)
      if lockWatch.noncopyableHolders.count > 4_096 { lockWatch.noncopyableHolders.removeAll(keepingCapacity: true) }
      lockWatch.noncopyableHolders[metadata] = holds
      lockWatch.madeNoncopyableHolders = holds
    }
  }

  /// Makes the program's object allocations visible to the run whose step makes them.
  enum ObjectAllocations {
    /// The slots through which the image holding this code calls `swift_allocObject`, pointed at
    /// the noting function once, the first time it is read.
    static let claimed: Void = {
      guard realAllocate != nil else { return }
      let replacement = unsafeBitCast(notingAllocate, to: UnsafeRawPointer.self)
      let slots = ImportedFunctionSlot.slots(of: "swift_allocObject", inLibraryContaining: replacement)
      SlotRedirections(slots.map { ($0, replacement) }).claim()
    }()

    /// `swift_allocObject(metadata, size, alignment mask)`, whose arguments and result travel in
    /// the same registers under the Swift and C calling conventions.
    private typealias Allocate = @convention(c) (UnsafeRawPointer?, Int, Int) -> UnsafeMutableRawPointer?

    private static let realAllocate: Allocate? = runtimeFunction("swift_allocObject")

    /// The allocation, then, on a driving thread of a run, the note of the object's class.
    private static let notingAllocate: Allocate = { metadata, size, alignmentMask in
      let object = realAllocate!(metadata, size, alignmentMask)
      if RuntimeHooks.runsUnderWay.load(ordering: .relaxed) > 0, let metadata, let scheduler = DeterministicScheduler.controllingCallingThread {
        scheduler.noteObjectMade(metadata: UInt(bitPattern: metadata))
      }
      return object
    }
  }

  /// What the metadata of a Swift class says of its stored properties, read as the runtime lays it
  /// out on 64-bit Linux (no Objective-C interoperability).
  enum ClassLayout {
    /// The modules whose objects are this library's own: its drop-in locks and atomics are
    /// scheduling points, and its other state is no program's.
    private static let ownModules: [StaticString] = ["EffectScheduler", "Effects", "Explore", "ExploreTesting"]

    /// Whether the class whose metadata is at `metadata`, or a superclass, has a stored property
    /// of a noncopyable type, and is not of this library's modules.
    static func holdsNoncopyable(metadata: UInt) -> Bool {
      var current = UnsafeRawPointer(bitPattern: metadata)
      var holds = false
      while let classMetadata = current, classMetadata.load(as: UInt.self) == 0 {
        guard let descriptor = classMetadata.load(fromByteOffset: 40, as: UnsafeRawPointer?.self) else { break }
        if current == UnsafeRawPointer(bitPattern: metadata), let module = moduleName(of: descriptor),
          ownModules.contains(where: { strcmp(cString($0.utf8Start), cString(module)) == 0 })
        {
          return false
        }
        if storesNoncopyable(descriptor) {
          holds = true
          break
        }
        current = classMetadata.load(fromByteOffset: 8, as: UnsafeRawPointer?.self)
      }
      return holds
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

    /// The name of the module that declares the context described at `descriptor`, as the
    /// metadata holds it (no string is made: the allocations of a note are no program's either).
    private static func moduleName(of descriptor: UnsafeRawPointer) -> UnsafePointer<UInt8>? {
      var context: UnsafeRawPointer? = descriptor
      for _ in 0..<16 {
        guard let current = context else { return nil }
        if current.load(as: UInt32.self) & 0x1F == 0 {
          return relative(current + 8).map { $0.assumingMemoryBound(to: UInt8.self) }
        }
        context = indirectableRelative(current + 4)
      }
      return nil
    }

    private static func cString(_ bytes: UnsafePointer<UInt8>) -> UnsafePointer<CChar> {
      UnsafeRawPointer(bytes).assumingMemoryBound(to: CChar.self)
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
