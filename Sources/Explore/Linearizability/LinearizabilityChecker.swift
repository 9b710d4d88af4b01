/// Decides whether a history of calls is linearizable: whether some order of all the calls, in
/// which a call that ended before another began stays before it, gives every call the result it
/// returned when the model runs them one after another in that order.
///
/// A depth-first search in the manner of Wing and Gong: each step extends the order with a call
/// no pending call finished before, and keeps it only if the model agrees with its result. The
/// model's results for each order tried are kept, so that later runs of the same scenario, which
/// try the same orders, run the model only for orders new to them.
package final class LinearizabilityChecker {
  /// Runs the calls at these indices on a fresh model, in this order, and returns their results.
  package typealias Model = ([Int]) -> Result<[OperationResult], any Error>

  private let runModel: Model
  private let describe: (Int) -> String
  /// The model's results for each order it ran, and for each prefix of one.
  private var known: [[Int]: [OperationResult]] = [:]
  /// How many orders one check may extend before it gives up, so that a pathological history
  /// cannot stall the check; giving up fails the run (``LinearizabilityUndecided``) rather than
  /// passing a history nobody checked.
  private let nodeLimit: Int

  package init(model: @escaping Model, describe: @escaping (Int) -> String, nodeLimit: Int = 200_000) {
    runModel = model
    self.describe = describe
    self.nodeLimit = nodeLimit
  }

  /// The model's result for the last call of `order`.
  private func modelResult(of order: [Int]) throws -> OperationResult {
    if let results = known[order] { return results[order.count - 1] }
    let results = try runModel(order).get()
    for length in 1...order.count { known[Array(order[..<length])] = Array(results[..<length]) }
    return results[order.count - 1]
  }

  /// `nil` when the history is linearizable; otherwise why not.
  package func violation(in history: History) throws -> LinearizabilityViolation? {
    let entries = history.entries
    var done = Array(repeating: false, count: entries.count)
    var order: [Int] = []
    var nodes = 0
    var deepest: (order: [Int], mismatches: [LinearizabilityViolation.Mismatch]) = ([], [])

    func search() throws -> Bool {
      if order.count == entries.count { return true }
      nodes += 1
      if nodes > nodeLimit { throw LinearizabilityUndecided(orders: nodeLimit) }
      let firstEnd = entries.indices.lazy.filter { !done[$0] }.map { entries[$0].ended }.min() ?? .max
      var mismatches: [LinearizabilityViolation.Mismatch] = []
      for call in entries.indices where !done[call] && entries[call].began < firstEnd {
        let expected = try modelResult(of: order + [call])
        guard let returned = entries[call].result, returned == expected else {
          mismatches.append(.init(call: describe(call), returned: entries[call].result?.description ?? "nothing", model: expected.description))
          continue
        }
        done[call] = true
        order.append(call)
        if try search() { return true }
        order.removeLast()
        done[call] = false
      }
      if order.count >= deepest.order.count { deepest = (order, mismatches) }
      return false
    }

    if try search() { return nil }
    let matched = deepest.order.map { "\(describe($0)) → \(entries[$0].result?.description ?? "nothing")" }
    return LinearizabilityViolation(longestMatchingOrder: matched, mismatches: deepest.mismatches)
  }
}

/// Why a history has no sequential explanation: the longest order of its calls the model agrees
/// with, and what each call that could come next returned against what the model gives.
public struct LinearizabilityViolation: Error, Sendable, CustomStringConvertible {
  /// A call that could come next, and the results that disagree.
  public struct Mismatch: Sendable {
    /// The call, as `image("a")`.
    public var call: String
    /// What it returned in the run.
    public var returned: String
    /// What the model returns for it at that point.
    public var model: String
  }

  /// The longest order of calls, each with its result, that the model agrees with.
  public var longestMatchingOrder: [String]
  /// What each call that could come next returned, against the model.
  public var mismatches: [Mismatch]

  /// One paragraph.
  public var description: String {
    let start = longestMatchingOrder.isEmpty ? "no call can come first" : "the longest order the model agrees with is \(longestMatchingOrder.joined(separator: ", ")); after it"
    let next = mismatches.map { "\($0.call) returned \($0.returned) where the model gives \($0.model)" }
    return "no sequential order of the calls, keeping each after those that ended before it began, gives the results they returned: "
      + start + (longestMatchingOrder.isEmpty ? ": " : ", ") + (next.isEmpty ? "no call may come next" : next.joined(separator: "; "))
  }
}

/// The search for a sequential order gave up before finding one or ruling every one out.
package struct LinearizabilityUndecided: Error, CustomStringConvertible {
  /// How many orders it extended.
  package let orders: Int
  package var description: String {
    "the check gave up after extending \(orders) orders of the calls without finding one that explains their results"
      + " or ruling them all out: shrink the scenario's shape (LinearizabilityConfiguration.shape)"
  }
}
