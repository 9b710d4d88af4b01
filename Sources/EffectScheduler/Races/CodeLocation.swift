#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import InstrumentationEntryPoints

@_silgen_name("swift_demangle")
private func swiftDemangle(
  _ mangled: UnsafePointer<CChar>, _ length: Int, _ output: UnsafeMutablePointer<CChar>?, _ outputLength: UnsafeMutablePointer<Int>?, _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?

/// Where an address in the program's code is, in words: `Counter.swift:12` where the binary has
/// debug information and `llvm-symbolizer` is on the path (`Counter.swift, in Counter.add()` for
/// code the compiler made without a line, such as an exclusivity check), else the function's
/// symbol and the offset into it. Worked out only for a report.
enum CodeLocation {
  static func describe(_ address: UInt) -> String {
    guard address != 0, let pointer = UnsafeRawPointer(bitPattern: address) else { return "an unknown place" }
    var image: UnsafePointer<CChar>?
    var symbol: UnsafePointer<CChar>?
    var imageBase: UInt = 0
    var symbolAddress: UInt = 0
    guard instrumentation_address_info(pointer, &image, &imageBase, &symbol, &symbolAddress) != 0, let image else {
      return "0x" + String(address, radix: 16)
    }
    // The caller's address is that of the instruction after the call: one byte back is in it.
    if let line = symbolize(image: String(cString: image), offset: address - 1 - imageBase) { return line }
    return "\(symbol.map { String(cString: $0) } ?? "?")+\(address - symbolAddress)"
  }

  /// `Counter.add()` for the symbol of that method, as the runtime demangles it.
  private static func demangled(_ symbol: String) -> String {
    guard let text = symbol.withCString({ swiftDemangle($0, strlen($0), nil, nil, 0) }) else { return symbol }
    defer { free(text) }
    // `InstrumentedTests.(Tally in _64D8…).add() -> ()` is `Tally.add()`: no module, no private
    // discriminator, no result.
    var name = String(cString: text)
    if let dot = name.firstIndex(of: "."), !name[..<dot].contains("(") { name = String(name[name.index(after: dot)...]) }
    while let open = name.range(of: "("), let inPrivate = name.range(of: " in _", range: open.upperBound..<name.endIndex),
      let close = name.range(of: ")", range: inPrivate.upperBound..<name.endIndex)
    {
      name.replaceSubrange(open.lowerBound..<close.upperBound, with: name[open.upperBound..<inPrivate.lowerBound])
    }
    if let arrow = name.range(of: " -> ", options: .backwards) { name = String(name[..<arrow.lowerBound]) }
    return name
  }

  /// `File.swift:12` for `offset` in the image at `path`, by `llvm-symbolizer`, if it can tell.
  private static func symbolize(image path: String, offset: UInt) -> String? {
    #if os(Linux)
      var output: [Int32] = [0, 0]
      guard pipe(&output) == 0 else { return nil }
      defer { close(output[0]) }
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_adddup2(&actions, output[1], 1)
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
      let arguments = ["llvm-symbolizer", "--obj=\(path)", "--no-inlines", "--functions=linkage", "--no-demangle", "--relative-address", "0x" + String(offset, radix: 16)]
      var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
      defer { for argument in argv { free(argument) } }
      var child = pid_t()
      let spawned = posix_spawnp(&child, "llvm-symbolizer", &actions, nil, &argv, environ)
      close(output[1])
      guard spawned == 0 else { return nil }
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 512)
      while true {
        let count = read(output[0], &buffer, buffer.count)
        guard count > 0 else { break }
        bytes += buffer[..<count]
      }
      var status: Int32 = 0
      waitpid(child, &status, 0)
      // The function's symbol, then `/path/to/File.swift:12:5`, or `??:0:0` without debug information.
      let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
      guard lines.count >= 2 else { return nil }
      let parts = lines[1].split(separator: ":")
      guard parts.count >= 2, parts[0] != "??" else { return nil }
      let file = parts[0].split(separator: "/").last.map(String.init) ?? String(parts[0])
      if let line = Int(parts[1]), line > 0 { return "\(file):\(line)" }
      return "\(file), in \(demangled(String(lines[0])))"
    #else
      return nil
    #endif
  }
}
