import EffectScheduler

/// One concurrent scenario of a linearizability check: calls made one after another first, then
/// by several tasks at once, then one after another again.
///
/// Its text form, which a replay line quotes, lists the calls of each part as `operation.argument`
/// indices: the parts separated by `/`, the tasks of the parallel part by `|`, and each task's
/// calls by `,`, as in `0.1/2.0,1.1|3/0.0`.
public struct Scenario: Hashable, Sendable, CustomStringConvertible {
  /// One call: the index of its operation, in the order they were added, and of its argument.
  public struct Call: Hashable, Sendable {
    /// The operation's index.
    public var operation: Int
    /// The argument's index among the operation's arguments; 0 for an operation without any.
    public var argument: Int

    /// Creates a call.
    public init(operation: Int, argument: Int = 0) {
      self.operation = operation
      self.argument = argument
    }
  }

  /// The calls made before the tasks start, one after another.
  public var initial: [Call]
  /// The calls of each task of the parallel part, in the order each makes them.
  public var parallel: [[Call]]
  /// The calls made after every task has finished, one after another.
  public var final: [Call]

  /// Creates a scenario.
  public init(initial: [Call] = [], parallel: [[Call]], final: [Call] = []) {
    self.initial = initial
    self.parallel = parallel
    self.final = final
  }

  /// How many calls the scenario makes.
  public var callCount: Int { initial.count + parallel.reduce(0) { $0 + $1.count } + final.count }

  /// The text form, such as `0.1/2.0,1.1|3/0.0`.
  public var description: String {
    func text(_ calls: [Call]) -> String {
      calls.map { $0.argument == 0 ? "\($0.operation)" : "\($0.operation).\($0.argument)" }.joined(separator: ",")
    }
    return [text(initial), parallel.map(text).joined(separator: "|"), text(final)].joined(separator: "/")
  }

  /// Reads a scenario's text form, checking each call against `operations`, the number of
  /// arguments of each operation; `nil` with the reason when it is not one.
  static func parse(_ text: Substring, arguments operations: [Int]) -> Result<Scenario, ScenarioTextError> {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return .failure(ScenarioTextError(text: String(text), problem: "it has \(parts.count) parts, not 3 separated by /")) }
    func calls(_ part: Substring) -> [Call]? {
      if part.isEmpty { return [] }
      var calls: [Call] = []
      for item in part.split(separator: ",", omittingEmptySubsequences: false) {
        let numbers = item.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...2).contains(numbers.count), let operation = numbers[0], operations.indices.contains(operation) else { return nil }
        let argument = numbers.count == 2 ? numbers[1] : 0
        guard let argument, argument >= 0, argument < max(1, operations[operation]) else { return nil }
        calls.append(Call(operation: operation, argument: argument))
      }
      return calls
    }
    let tasks = parts[1].split(separator: "|", omittingEmptySubsequences: false).map(calls)
    guard let initial = calls(parts[0]), let final = calls(parts[2]), tasks.allSatisfy({ $0 != nil }) else {
      return .failure(ScenarioTextError(text: String(text), problem: "a call names an operation or argument the check does not have"))
    }
    return .success(Scenario(initial: initial, parallel: tasks.compactMap { $0 }.filter { !$0.isEmpty }, final: final))
  }

  /// A random scenario of `shape`, for operations that take `arguments` arguments each.
  static func random(_ shape: ScenarioShape, arguments operations: [Int], using generator: inout SeededGenerator) -> Scenario {
    func call() -> Call {
      let operation = generator.below(operations.count)
      return Call(operation: operation, argument: generator.below(max(1, operations[operation])))
    }
    func calls(_ range: ClosedRange<Int>) -> [Call] {
      (0..<(range.lowerBound + generator.below(range.count))).map { _ in call() }
    }
    let initial = calls(shape.initialCalls)
    let tasks = (0..<(shape.tasks.lowerBound + generator.below(shape.tasks.count))).map { _ in calls(shape.callsPerTask) }
    return Scenario(initial: initial, parallel: tasks.filter { !$0.isEmpty }, final: calls(shape.finalCalls))
  }

  /// The scenarios one call smaller, the parallel part's calls first, for shrinking a failure.
  var smaller: [Scenario] {
    var smaller: [Scenario] = []
    for task in parallel.indices where parallel.count > 1 {
      var fewer = self
      fewer.parallel.remove(at: task)
      smaller.append(fewer)
    }
    for task in parallel.indices {
      for index in parallel[task].indices {
        var fewer = self
        fewer.parallel[task].remove(at: index)
        if fewer.parallel[task].isEmpty {
          guard fewer.parallel.count > 1 else { continue }
          fewer.parallel.remove(at: task)
        }
        smaller.append(fewer)
      }
    }
    for index in initial.indices {
      var fewer = self
      fewer.initial.remove(at: index)
      smaller.append(fewer)
    }
    for index in final.indices {
      var fewer = self
      fewer.final.remove(at: index)
      smaller.append(fewer)
    }
    return smaller
  }
}

/// Why a replay line's scenario could not be read.
struct ScenarioTextError: Error, CustomStringConvertible {
  let text: String
  let problem: String
  var description: String { "\"\(text)\" is not a scenario of this check: \(problem)" }
}

/// How big the scenarios of a linearizability check are.
public struct ScenarioShape: Hashable, Sendable {
  /// How many calls the initial sequential part makes.
  public var initialCalls: ClosedRange<Int>
  /// How many tasks the parallel part runs.
  public var tasks: ClosedRange<Int>
  /// How many calls each task of the parallel part makes.
  public var callsPerTask: ClosedRange<Int>
  /// How many calls the final sequential part makes.
  public var finalCalls: ClosedRange<Int>

  /// Creates a shape; the defaults are 0–2 calls before, 2–3 tasks of 1–4 calls, 0–2 after.
  public init(
    initialCalls: ClosedRange<Int> = 0...2, tasks: ClosedRange<Int> = 2...3, callsPerTask: ClosedRange<Int> = 1...4,
    finalCalls: ClosedRange<Int> = 0...2
  ) {
    self.initialCalls = max(0, initialCalls.lowerBound)...max(0, initialCalls.upperBound)
    self.tasks = max(1, tasks.lowerBound)...max(1, tasks.upperBound)
    self.callsPerTask = max(1, callsPerTask.lowerBound)...max(1, callsPerTask.upperBound)
    self.finalCalls = max(0, finalCalls.lowerBound)...max(0, finalCalls.upperBound)
  }
}
