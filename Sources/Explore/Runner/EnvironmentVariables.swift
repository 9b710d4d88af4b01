import Foundation

/// The environment variables an `explore` call reads, looked up one by one.
///
/// `ProcessInfo.processInfo.environment` copies every variable of the process into a new
/// dictionary at each read, a cost out of proportion to an `explore` call of a few schedules.
enum EnvironmentVariables {
  /// The variables among `names` that are set, with their values.
  static func values(of names: String...) -> [String: String] {
    var values: [String: String] = [:]
    for name in names {
      if let value = getenv(name) { values[name] = String(cString: value) }
    }
    return values
  }
}
