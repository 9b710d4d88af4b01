import EffectScheduler
import Foundation

/// A replay asked for through the environment: `EXPLORE_REPLAY=s1:…` replays that schedule in
/// every `explore` call, and `EXPLORE_REPLAY='Tests/BankTests.swift:12=s1:…'` only in the call at
/// that place, which is the form failure reports print. The place's file may leave out leading
/// folders or the module (`BankTests.swift:12`), as long as its line is the call's.
struct ReplayRequest {
  static let variable = "EXPLORE_REPLAY"

  /// The schedule to replay at `location` (`fileID:line`, the call's `#filePath` besides), if the
  /// environment asks for one there.
  static func schedule(at location: String, filePath: String? = nil, environment: [String: String]) -> String? {
    value(of: variable, at: location, filePath: filePath, environment: environment)
  }

  /// What `variable` asks to replay at `location`: its whole value, or for a value of the form
  /// `file:line=…`, what follows the `=` when `file:line` names `location`.
  static func value(of variable: String, at location: String, filePath: String? = nil, environment: [String: String]) -> String? {
    guard let value = environment[variable]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
    guard let (wanted, schedule) = placed(value) else { return value }
    guard let here = Place(Substring(location)), wanted.line == here.line, wanted.names(file: here.file, filePath: filePath) else { return nil }
    return String(schedule)
  }

  /// Why `variable` replays nothing at `location` though it names a place in the same file: the
  /// line it names is not the call's, as when lines were added above the call since the failure
  /// printed it. `nil` when it names no place, or one in another file.
  static func misplacement(of variable: String, at location: String, filePath: String? = nil, environment: [String: String]) -> String? {
    guard let value = environment[variable]?.trimmingCharacters(in: .whitespaces), let (wanted, _) = placed(value),
      let here = Place(Substring(location)), wanted.line != here.line, wanted.names(file: here.file, filePath: filePath)
    else { return nil }
    return "warning: \(variable) asks for a replay at \(wanted.file):\(wanted.line), but the call in that file is at line "
      + "\(here.line): this call explores as usual. If it is the call that failed, put line \(here.line) in \(variable)."
  }

  /// The place and the schedule of a value of the form `file:line=…`; `nil` for a bare schedule.
  private static func placed(_ value: String) -> (place: Place, schedule: Substring)? {
    guard !value.hasPrefix("s1:"), let separator = value.firstIndex(of: "="), let place = Place(value[..<separator]) else { return nil }
    return (place, value[value.index(after: separator)...])
  }

  /// A place in the source, `file:line`.
  private struct Place {
    let file: Substring
    let line: Substring

    init?(_ text: Substring) {
      guard let colon = text.lastIndex(of: ":"), !text[text.index(after: colon)...].isEmpty else { return nil }
      file = text[..<colon]
      line = text[text.index(after: colon)...]
    }

    /// Whether this place's file is `file` (a `#fileID`), or the end of it or of `filePath` from
    /// a folder boundary on.
    func names(file fileID: Substring, filePath: String?) -> Bool {
      func endsWith(_ path: Substring) -> Bool { path == file || path.hasSuffix("/" + file) }
      return endsWith(fileID) || filePath.map { endsWith(Substring($0)) } ?? false
    }
  }
}
