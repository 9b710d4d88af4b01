import Foundation

/// The shard an `explore` call runs: the one `EXPLORE_SHARD=i/n` names if the variable is set,
/// else ``ExploreConfiguration/shard``.
enum ShardRequest {
  /// A shard setting that names no shard, described in a sentence naming the setting and value.
  struct Invalid: Error, CustomStringConvertible {
    var description: String
  }

  private static let form = "Write i/n with i from 1 to n, such as \(Shard.environmentVariable)=2/4 for the second of four shards."

  /// The shard to run, or `nil` for the whole search.
  static func shard(configured: Shard?, environment: [String: String]) throws(Invalid) -> Shard? {
    guard let value = environment[Shard.environmentVariable] else {
      guard let configured, let problem = configured.problem else { return configured }
      throw Invalid(description: "ExploreConfiguration.shard, \(configured), is not a shard: \(problem).")
    }
    let setting = "\(Shard.environmentVariable)='\(value)'"
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { throw Invalid(description: "\(setting) is not a shard: it is empty. \(form)") }
    guard let shard = Shard(parsing: trimmed) else {
      throw Invalid(description: "\(setting) is not a shard: it is not of the form i/n. \(form)")
    }
    if let problem = shard.problem { throw Invalid(description: "\(setting) is not a shard: \(problem). \(form)") }
    return shard
  }
}
