import EffectScheduler
import Foundation

/// A replay asked for through the environment: `EXPLORE_REPLAY=s1:…` replays that schedule in
/// every `explore` call, and `EXPLORE_REPLAY='Tests/BankTests.swift:12=s1:…'` only in the call at
/// that place, which is the form failure reports print.
struct ReplayRequest {
  static let variable = "EXPLORE_REPLAY"

  /// The schedule to replay at `location` (`file:line`), if the environment asks for one there.
  static func schedule(at location: String, environment: [String: String]) -> String? {
    value(of: variable, at: location, environment: environment)
  }

  /// What `variable` asks to replay at `location`: its whole value, or for a value of the form
  /// `file:line=…`, what follows the `=` when `file:line` is `location`.
  static func value(of variable: String, at location: String, environment: [String: String]) -> String? {
    guard let value = environment[variable]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
    guard let separator = value.firstIndex(of: "="), !value.hasPrefix("s1:") else { return value }
    return value[..<separator] == location ? String(value[value.index(after: separator)...]) : nil
  }
}
