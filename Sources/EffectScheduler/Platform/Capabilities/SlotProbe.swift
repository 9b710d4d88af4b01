#if os(Linux) && _pointerBitWidth(_64)
  import Glibc

  /// Probes ``RuntimeMechanism/importedFunctionSlots``: the slot this image calls `getppid`
  /// through, once a call has bound it, must hold the address the dynamic linker gives for
  /// `getppid`, and the concurrency library must call `pthread_mutex_lock` through slots found
  /// the same way.
  enum SlotProbe {
    static func probe() -> MechanismStatus {
      _ = getppid()
      guard let real: UnsafeRawPointer = runtimeFunction("getppid") else { return .failedProbe("getppid cannot be looked up") }
      let slots = ImportedFunctionSlot.slots(of: "getppid", inLibraryContaining: unsafeBitCast(imageMarker, to: UnsafeRawPointer.self))
      guard !slots.isEmpty else { return .failedProbe("no slot of this image's for getppid was found") }
      guard slots.allSatisfy({ $0.target == UInt(bitPattern: real) }) else {
        return .failedProbe("this image's slot for getppid does not hold getppid")
      }
      guard !ImportedFunctionSlot.slots(of: "pthread_mutex_lock", inLibraryDefining: "swift_get_time").isEmpty else {
        return .failedProbe("no slot of the concurrency library's for pthread_mutex_lock was found")
      }
      return .verified
    }

    /// A function of this library's image, whose address tells the image.
    private static let imageMarker: @convention(c) () -> Void = {}
  }
#endif
