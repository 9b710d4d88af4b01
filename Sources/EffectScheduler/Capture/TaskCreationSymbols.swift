#if canImport(Runtime) && os(Linux)
  // For a backtrace made of return addresses recorded earlier (`RichFrame`), which the module
  // offers only to its own tools; this library already reads Swift 6.3's runtime layouts.
  @_spi(Internal) import Runtime
#endif
import Synchronization

/// Works the return addresses of a ``TaskCreation`` out into the place in the program that made
/// the task, with the toolchain's `Runtime` module, which reads the symbols and the DWARF line
/// tables of the loaded images.
///
/// The place is the first frame below the runtime's `swift_task_create` that is neither the
/// runtime's, the standard library's (`Task.init`, `Task.detached`), nor this library's
/// (`Task.effect` and the scheduler's spawn): the code that wrote `Task {`. Labels are kept per call
/// stack, so a report that names a task made by the same code again reads nothing.
enum TaskCreationSymbols {
  /// The labels worked out so far, by call stack.
  private static let labels = Mutex<[[UInt]: String?]>([:])
  /// The frames looked up so far, by return address: call stacks share most of theirs.
  private static let frames = Mutex<[UInt: Frame?]>([:])

  /// `Task at SearchModel.swift:14`, `Task in SearchModel.search()`, or `nil`.
  static func label(of returnAddresses: [UInt]) -> String? {
    if let known = labels.withLock({ $0[returnAddresses] }) { return known }
    let label = workOut(returnAddresses)
    labels.withLock { $0[returnAddresses] = label }
    return label
  }

  /// What a return address's lookup found: the function's mangled name, and the label of a
  /// frame of the program's own.
  private struct Frame {
    let rawName: String
    let label: String?
  }

  /// The symbol name prefixes of the code that stands between `swift_task_create` and the code
  /// that made the task: the concurrency library's `Task` (`$sScT`), and this library's modules.
  private static let passedThrough = ["$sScT", "$s15EffectScheduler", "$s7Effects"]

  /// The first frame after the runtime's `swift_task_create` whose code is the program's own.
  /// The runtime's frames are passed over by their exported names (`dladdr`), which costs next to
  /// nothing; only the frames after them are looked up in the debug information, one at a time
  /// and each once in the process: reading debug information is slow, and a whole stack's many
  /// times so.
  private static func workOut(_ returnAddresses: [UInt]) -> String? {
    let creating = returnAddresses.lastIndex { exportedName(at: $0)?.hasPrefix("swift_task_create") == true }.map { $0 + 1 } ?? 0
    for address in returnAddresses[creating...] {
      let frame: Frame?
      if let known = frames.withLock({ $0[address] }) {
        frame = known
      } else {
        frame = lookUp(address)
        frames.withLock { $0[address] = frame }
      }
      guard let frame, frame.rawName.hasPrefix("$s"), !passedThrough.contains(where: frame.rawName.hasPrefix) else { continue }
      if let label = frame.label { return label }
    }
    return nil
  }

  /// The name the image holding `address` exports for the function there, if any.
  private static func exportedName(at address: UInt) -> String? {
    guard let lookUp = addressInfo, let pointer = UnsafeRawPointer(bitPattern: address) else { return nil }
    // `Dl_info`: the file's name, its base address, the nearest symbol's name and address.
    var info: (UnsafePointer<CChar>?, UnsafeRawPointer?, UnsafePointer<CChar>?, UnsafeRawPointer?) = (nil, nil, nil, nil)
    guard withUnsafeMutableBytes(of: &info, { lookUp(pointer, $0.baseAddress!) }) != 0, let name = info.2 else { return nil }
    return String(cString: name)
  }

  /// `dladdr`, which the Glibc module does not declare, looked up once.
  private static let addressInfo: (@convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer) -> Int32)? = runtimeFunction("dladdr")

  #if canImport(Runtime) && os(Linux)
    /// The images loaded when a report first asked: the program's code is loaded by then.
    private static let images = ImageMap.capture()
    private static let architecture = try? Backtrace.capture(limit: 1).architecture

    /// The function at the return address `address`, with its label if its code is the program's:
    /// `Task at SearchModel.swift:14`, or `Task in SearchModel.search()` without line information.
    private static func lookUp(_ address: UInt) -> Frame? {
      guard let architecture,
        let symbolicated = Backtrace(architecture: architecture, frames: [RichFrame<UInt>.returnAddress(address)], images: images)
          .symbolicated(with: images)
      else { return nil }
      // With inlined calls, the innermost function comes first; the label is of the outermost of
      // the program's own, whose line is that of the call.
      let symbols = symbolicated.frames.compactMap { $0.symbol }.filter { !$0.isSwiftThunk }
      guard let outermost = symbols.last else { return nil }
      for symbol in symbols where symbol.rawName.hasPrefix("$s") && !passedThrough.contains(where: symbol.rawName.hasPrefix) {
        if let location = symbol.sourceLocation, location.line > 0, !location.path.hasPrefix("<") {
          return Frame(rawName: symbol.rawName, label: "Task at \(location.path.split(separator: "/").last ?? ""):\(location.line)")
        }
        return Frame(rawName: symbol.rawName, label: "Task in \(symbol.name)")
      }
      return Frame(rawName: outermost.rawName, label: nil)
    }
  #else
    private static func lookUp(_ address: UInt) -> Frame? { nil }
  #endif
}
