/// What a passing exploration claims of the program: every schedule, every schedule given some
/// assumptions, or only the schedules it ran.
///
/// ```swift
/// let summary = try await explore(.exhaustive) { … }
/// if summary.claim.coversEverySchedule, summary.claim.assumptions.isEmpty { … }  // summary.exploredEverySchedule
/// ```
public struct ExplorationClaim: Hashable, Sendable, CustomStringConvertible {
  /// Whether the search tried every schedule there is (with a shard, every schedule of its
  /// share), as far as its assumptions go; `false` for a sample, a bounded search, or a search
  /// that met something no schedule can show.
  public var coversEverySchedule: Bool
  /// What the claim rests on, in a fixed order; empty when nothing beyond the schedules run.
  public var assumptions: [ExplorationAssumption]

  /// Creates a claim.
  public init(coversEverySchedule: Bool, assumptions: some Sequence<ExplorationAssumption> = []) {
    self.coversEverySchedule = coversEverySchedule
    self.assumptions = Set(assumptions).sorted()
  }

  /// Whether the claim is of every schedule with no assumption.
  public var isUnqualified: Bool { coversEverySchedule && assumptions.isEmpty }

  /// The warning a passing exploration records under Swift Testing when its claim rests on
  /// assumptions, naming each and the setting that removes it; `nil` when it rests on none.
  var warning: String? {
    guard !assumptions.isEmpty else { return nil }
    let extent = coversEverySchedule ? "every schedule" : "the schedules it ran"
    return "explore passed \(extent), assuming that "
      + assumptions.map(\.withItsSetting).joined(separator: "; and that ")
  }

  /// `every schedule`, `every schedule, assuming that …; that …`, or `a sample of the schedules`
  /// (with its assumptions, if any).
  public var description: String {
    let extent = coversEverySchedule ? "every schedule" : "a sample of the schedules"
    guard !assumptions.isEmpty else { return extent }
    return extent + ", assuming that " + assumptions.map(\.description).joined(separator: "; that ")
  }
}
