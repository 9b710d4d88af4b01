/// The decisions of one run, in order: the value you replay to run a program the same way again.
///
/// A schedule prints as a compact string that ``init(parsing:)`` reads back. Each step names the
/// task that ran (`3`), the position of an actor job among the ready jobs (`a0`) or a timer that
/// fired while jobs were ready (`t`); a step repeated
/// `n` times in a row is written once with `*n`:
///
/// ```swift
/// let schedule = try Schedule(parsing: "s1:0.1*2.2.a0")
/// schedule.choices.count // 5
/// ```
///
/// A schedule made by a run that paused between the critical sections of its steps
/// (``SchedulerConfiguration/pausesBetweenCriticalSections``) has more steps than one made without,
/// and says so, `s1:cs.` before its steps: a replay of it pauses there too, whatever the
/// configuration it is given.
public struct Schedule: Hashable, Sendable, CustomStringConvertible {
  /// The choices, one a step.
  public var choices: [ScheduleChoice]
  /// Whether the run that made the schedule paused between two critical sections of one step on
  /// locks the scheduler does not control (``SchedulerConfiguration/pausesBetweenCriticalSections``),
  /// so its steps are those pauses cut.
  public var splitsCriticalSections: Bool

  /// Creates a schedule from its choices, made by a run that paused between critical sections or not.
  public init(_ choices: [ScheduleChoice] = [], splitsCriticalSections: Bool = false) {
    self.choices = choices
    self.splitsCriticalSections = splitsCriticalSections
  }

  /// The part that marks a schedule whose steps pauses between critical sections cut.
  static let splitsCriticalSectionsMark = "cs"

  /// The most steps a parsed schedule may have, so a corrupted repeat count cannot exhaust memory.
  static let maximumLength = 10_000_000

  /// The version tag every encoded schedule starts with.
  static let prefix = "s1:"

  /// The schedule as a compact string, such as `s1:0.1*2.2.a0`.
  public var description: String {
    var parts: [String] = []
    var index = choices.startIndex
    while index < choices.endIndex {
      var end = index + 1
      while end < choices.endIndex, choices[end] == choices[index] { end += 1 }
      let count = end - index
      parts.append(count == 1 ? choices[index].description : "\(choices[index])*\(count)")
      index = end
    }
    if splitsCriticalSections { parts.insert(Self.splitsCriticalSectionsMark, at: 0) }
    return Self.prefix + parts.joined(separator: ".")
  }

  /// Reads a schedule from the string its ``description`` prints.
  ///
  /// - Throws: ``ScheduleParseError`` naming the first part of the string that is not a step.
  public init(parsing text: String) throws(ScheduleParseError) {
    let trimmed = text.trimmingWhitespace()
    guard trimmed.hasPrefix(Self.prefix) else {
      throw ScheduleParseError(input: text, problem: "it does not start with \"\(Self.prefix)\"")
    }
    var body = trimmed.dropFirst(Self.prefix.count)
    var choices: [ScheduleChoice] = []
    let mark = Self.splitsCriticalSectionsMark
    let splits = body == mark || body.hasPrefix(mark + ".")
    if splits { body = body.dropFirst(min(body.count, mark.count + 1)) }
    if body.isEmpty { self.init(choices, splitsCriticalSections: splits); return }
    for (offset, part) in body.split(separator: ".", omittingEmptySubsequences: false).enumerated() {
      let pieces = part.split(separator: "*", omittingEmptySubsequences: false)
      guard pieces.count <= 2, let choice = Self.choice(pieces[0]) else {
        throw ScheduleParseError(input: text, problem: "step \(offset + 1), \"\(part)\", is not a task number, a0, a1, … or t")
      }
      var repeats = 1
      if pieces.count == 2 {
        guard let count = Int(pieces[1]), count > 0, count <= Self.maximumLength else {
          throw ScheduleParseError(input: text, problem: "step \(offset + 1), \"\(part)\", has a bad repeat count")
        }
        repeats = count
      }
      guard choices.count + repeats <= Self.maximumLength else {
        throw ScheduleParseError(input: text, problem: "it has more than \(Self.maximumLength) steps")
      }
      choices.append(contentsOf: repeatElement(choice, count: repeats))
    }
    self.init(choices, splitsCriticalSections: splits)
  }

  private static func choice(_ text: Substring) -> ScheduleChoice? {
    if text == "t" { return .timer }
    if text.first == "a" {
      guard let position = Int(text.dropFirst()), position >= 0 else { return nil }
      return .actorJob(position: position)
    }
    guard text.allSatisfy(\.isASCII), let id = Int(text), id >= 0 else { return nil }
    return .task(TaskID(id))
  }
}

/// A string that is not an encoded ``Schedule``.
public struct ScheduleParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The string that was read.
  public var input: String
  /// What is wrong with it.
  public var problem: String

  /// Creates a parse error.
  package init(input: String, problem: String) {
    self.input = input
    self.problem = problem
  }

  /// A sentence naming the string and the problem.
  public var description: String { "\"\(input)\" is not a schedule: \(problem)" }
}

extension String {
  func trimmingWhitespace() -> Substring {
    let isSpace: (Character) -> Bool = { $0.isWhitespace }
    guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
      return ""
    }
    return self[start...end]
  }
}
