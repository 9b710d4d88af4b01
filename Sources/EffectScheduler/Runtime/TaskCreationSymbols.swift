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

  /// `Task at SearchModel.swift:14`, `Task in SearchModel.search()`, or `nil`.
  static func label(of returnAddresses: [UInt]) -> String? {
    if let known = labels.withLock({ $0[returnAddresses] }) { return known }
    let label = workOut(returnAddresses)
    labels.withLock { $0[returnAddresses] = label }
    return label
  }

  /// The symbol name prefixes of the code that stands between `swift_task_create` and the code
  /// that made the task: the concurrency library's `Task` (`$sScT`), and this library's modules.
  private static let passedThrough = ["$sScT", "$s15EffectScheduler", "$s7Effects"]

  #if canImport(Runtime) && os(Linux)
    /// The images loaded when a report first asked: the program's code is loaded by then.
    private static let images = ImageMap.capture()

    private static func workOut(_ returnAddresses: [UInt]) -> String? {
      let frames = returnAddresses.map { RichFrame<UInt>.returnAddress($0) }
      guard let architecture = try? Backtrace.capture(limit: 1).architecture,
        let symbolicated = Backtrace(architecture: architecture, frames: frames, images: images).symbolicated(with: images)
      else { return nil }
      let symbols = symbolicated.frames.map { $0.symbol }
      let creating = symbols.lastIndex { $0?.rawName.hasPrefix("swift_task_create") == true }.map { $0 + 1 } ?? 0
      for symbol in symbols[creating...] {
        guard let symbol, symbol.rawName.hasPrefix("$s"), !symbol.isSwiftThunk,
          !passedThrough.contains(where: symbol.rawName.hasPrefix)
        else { continue }
        if let location = symbol.sourceLocation, location.line > 0, !location.path.hasPrefix("<") {
          return "Task at \(location.path.split(separator: "/").last ?? ""):\(location.line)"
        }
        return "Task in \(symbol.name)"
      }
      return nil
    }
  #else
    private static func workOut(_ returnAddresses: [UInt]) -> String? { nil }
  #endif
}
