#if os(Linux) && _pointerBitWidth(_64)
  import Glibc

  /// A slot through which one loaded ELF library calls a function it imports from another: an
  /// entry of its global offset table, which a call through its procedure linkage table jumps
  /// through, or which code that takes the function's address reads. Writing another function's
  /// address there redirects that library's calls, and only that library's: every other library
  /// and the program keep their own slots.
  ///
  /// The library is found from the address of one of its symbols, and the slots from its dynamic
  /// section, as the dynamic linker itself reads it: the jump-slot relocations (`DT_JMPREL`) and
  /// the global-data ones among the others (`DT_RELA`), each naming its symbol through `DT_SYMTAB`
  /// and `DT_STRTAB`. Only 64-bit ELF with `Rela` relocations is read, which is what x86-64 and
  /// AArch64 Linux use.
  struct ImportedFunctionSlot: Hashable, @unchecked Sendable {
    private let slot: UnsafeMutablePointer<UInt>
    /// The range of the library's memory made read-only after relocation (`PT_GNU_RELRO`), which
    /// holds every slot where the library was linked to bind them all at load time.
    private let readOnlyAfterRelocation: Range<UInt>?

    /// The slots through which the library that defines `librarySymbol` calls `function`; empty
    /// where the library cannot be read that way or does not call it through a slot.
    static func slots(of function: String, inLibraryDefining librarySymbol: String) -> [ImportedFunctionSlot] {
      guard let symbol: UnsafeRawPointer = runtimeFunction(librarySymbol) else { return [] }
      return slots(of: function, inLibraryContaining: symbol)
    }

    /// The slots through which the library or executable whose code holds `address` calls
    /// `function`; empty where it cannot be read that way or does not call it through a slot.
    static func slots(of function: String, inLibraryContaining address: UnsafeRawPointer) -> [ImportedFunctionSlot] {
      guard let base = loadedImageBase(containing: address), let library = LoadedLibrary(base: base) else { return [] }
      return library.slotOffsets(of: function).map { offset in
        ImportedFunctionSlot(slot: UnsafeMutablePointer(bitPattern: library.base + offset)!, readOnlyAfterRelocation: library.readOnlyAfterRelocation)
      }
    }

    /// The address the slot holds now.
    var target: UInt { slot.pointee }

    private init(slot: UnsafeMutablePointer<UInt>, readOnlyAfterRelocation: Range<UInt>?) {
      self.slot = slot
      self.readOnlyAfterRelocation = readOnlyAfterRelocation
    }

    /// Points the slot at `replacement`, lifting the read-only protection for the write where the
    /// slot has it; a slot that points there already is only looked at.
    func redirect(to replacement: UnsafeRawPointer) {
      guard slot.pointee != UInt(bitPattern: replacement) else { return }
      let address = UInt(bitPattern: slot)
      guard let protected = readOnlyAfterRelocation, protected.contains(address) else {
        slot.pointee = UInt(bitPattern: replacement)
        return
      }
      let pageSize = UInt(sysconf(Int32(_SC_PAGESIZE)))
      let page = UnsafeMutableRawPointer(bitPattern: address & ~(pageSize - 1))
      guard mprotect(page, Int(pageSize), PROT_READ | PROT_WRITE) == 0 else { return }
      slot.pointee = UInt(bitPattern: replacement)
      mprotect(page, Int(pageSize), PROT_READ)
    }
  }

  /// The base address of the loaded library or executable whose mapping holds `address`, as
  /// `dladdr` tells it; `nil` for memory of no image, such as the heap or a stack.
  func loadedImageBase(containing address: UnsafeRawPointer) -> UnsafeRawPointer? {
    guard let lookUp = addressInfo else { return nil }
    // `Dl_info`: the file's name, its base address, the nearest symbol's name and address.
    var info: (UnsafeRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?) = (nil, nil, nil, nil)
    guard withUnsafeMutableBytes(of: &info, { lookUp(address, $0.baseAddress!) }) != 0 else { return nil }
    return info.1
  }

  /// `dladdr`, which the Glibc module does not declare, looked up once.
  private let addressInfo: (@convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer) -> Int32)? = runtimeFunction("dladdr")

  /// A loaded ELF library, read from its headers in memory.
  private struct LoadedLibrary {
    let base: UInt
    private let dynamicSection: UnsafeRawPointer
    let readOnlyAfterRelocation: Range<UInt>?

    init?(base pointer: UnsafeRawPointer) {
      base = UInt(bitPattern: pointer)
      // The ELF header: the magic number, then the program headers' offset, size and count.
      guard pointer.load(as: UInt32.self) == 0x464C_457F, pointer.load(fromByteOffset: 4, as: UInt8.self) == 2 else { return nil }
      let headers = pointer + Int(pointer.load(fromByteOffset: 32, as: UInt64.self))
      let headerSize = Int(pointer.load(fromByteOffset: 54, as: UInt16.self))
      let headerCount = Int(pointer.load(fromByteOffset: 56, as: UInt16.self))
      var dynamic: UnsafeRawPointer?
      var relro: Range<UInt>?
      for index in 0..<headerCount {
        let header = headers + index * headerSize
        let address = base + UInt(header.load(fromByteOffset: 16, as: UInt64.self))
        switch header.load(as: UInt32.self) {
        case 2: dynamic = UnsafeRawPointer(bitPattern: address)  // PT_DYNAMIC
        case 0x6474_E552:  // PT_GNU_RELRO
          relro = address..<(address + UInt(header.load(fromByteOffset: 40, as: UInt64.self)))
        default: break
        }
      }
      guard let dynamic else { return nil }
      dynamicSection = dynamic
      readOnlyAfterRelocation = relro
    }

    /// The offsets from the base of the slots of the imported `function`: its jump slot and its
    /// global-data slots.
    func slotOffsets(of function: String) -> [UInt] {
      var relocations: UInt?
      var relocationsSize: UInt?
      var dataRelocations: UInt?
      var dataRelocationsSize: UInt?
      var symbols: UInt?
      var names: UInt?
      var entry = dynamicSection
      while true {
        let tag = entry.load(as: Int64.self)
        if tag == 0 { break }  // DT_NULL
        let value = UInt(entry.load(fromByteOffset: 8, as: UInt64.self))
        // The dynamic linker may have relocated the addresses in place; an offset is below the base.
        let address = value >= base ? value : base + value
        switch tag {
        case 23: relocations = address  // DT_JMPREL
        case 2: relocationsSize = value  // DT_PLTRELSZ
        case 7: dataRelocations = address  // DT_RELA
        case 8: dataRelocationsSize = value  // DT_RELASZ
        case 20 where value != 7: return []  // DT_PLTREL: only `Rela` (7) is read
        case 6: symbols = address  // DT_SYMTAB
        case 5: names = address  // DT_STRTAB
        default: break
        }
        entry += 16
      }
      guard let symbols, let names else { return [] }
      // Each `Elf64_Rela` is an offset, an info word whose high half indexes the symbol table and
      // whose low half is the relocation's type, and an addend; each `Elf64_Sym` starts with the
      // offset of its name in the string table.
      func offsets(in table: UInt?, size: UInt?, ofTypes types: Set<UInt64>?) -> [UInt] {
        guard let table, let size else { return [] }
        var found: [UInt] = []
        for index in 0..<Int(size / 24) {
          let relocation = UnsafeRawPointer(bitPattern: table + UInt(index * 24))!
          let info = relocation.load(fromByteOffset: 8, as: UInt64.self)
          guard info >> 32 != 0, types?.contains(info & 0xFFFF_FFFF) ?? true else { continue }
          let symbol = UnsafeRawPointer(bitPattern: symbols + UInt(info >> 32) * 24)!
          let name = UnsafePointer<CChar>(bitPattern: names + UInt(symbol.load(as: UInt32.self)))!
          if strcmp(name, function) == 0 { found.append(UInt(relocation.load(as: UInt64.self))) }
        }
        return found
      }
      // `R_X86_64_GLOB_DAT` (6) and `R_AARCH64_GLOB_DAT` (1025): a slot holding a symbol's address.
      return offsets(in: relocations, size: relocationsSize, ofTypes: nil)
        + offsets(in: dataRelocations, size: dataRelocationsSize, ofTypes: [6, 1025])
    }
  }
#endif

/// Slots pointed at replacements, and pointed there again by ``claim()``: the dynamic linker
/// binds a slot lazily, the first time it is called through, and a thread doing so just as the
/// slot is redirected writes the real function over the replacement. Where slots cannot be read
/// (off 64-bit Linux) there are none.
final class SlotRedirections: Sendable {
  #if os(Linux) && _pointerBitWidth(_64)
    private let redirections: [(slot: ImportedFunctionSlot, replacement: UInt)]

    /// Redirects each slot to its replacement; none where the slots are not verified to be found
    /// as they are (``RuntimeMechanism/importedFunctionSlots``).
    init(_ redirections: [(ImportedFunctionSlot, UnsafeRawPointer)]) {
      let verified = RuntimeCapabilities.current.isOn(.importedFunctionSlots)
      self.redirections = verified ? redirections.map { ($0.0, UInt(bitPattern: $0.1)) } : []
      claim()
    }
  #else
    private let redirections: [Never] = []

    /// No redirections.
    init() {}
  #endif

  /// Whether no slot was found.
  var isEmpty: Bool { redirections.isEmpty }

  /// Points every slot at its replacement again where something wrote over it; runs do, as they
  /// start.
  func claim() {
    #if os(Linux) && _pointerBitWidth(_64)
      for (slot, replacement) in redirections { slot.redirect(to: UnsafeRawPointer(bitPattern: replacement)!) }
    #endif
  }
}
