/// How the default portfolio shares its ``PortfolioBudget`` among its parts.
///
/// The systematic parts run one after another: first the reduced search, for at most half the
/// schedule budget and until half the time budget has passed at most; the exhaustive search only
/// when the reduced one stopped because it could not justify a claim of every schedule, in what
/// is left of that half; then preemption bounds 0, 1 and 2, each for at most a tenth of the
/// schedules, sharing half of the time left, a third of that half each (time one leaves unused
/// passes to the next). PCT and random, taking turns, get the rest of both budgets: at least a
/// fifth of the schedules and a quarter of the time. The first half goes to the searches that can
/// prove a program right, so that a space they can finish within the budget is settled
/// completely, even on a loaded machine.
struct PortfolioPlan {
  /// The parts that search systematically, in the order they run.
  static let systematicParts: [PortfolioPart] = [.reduced, .exhaustive, .preemptionBound(0), .preemptionBound(1), .preemptionBound(2)]
  /// How many of the systematic parts share the first half of the budget: the searches that can
  /// prove a program right.
  static let provingParts = 2
  /// The depth of the PCT runs, which take turns with random runs once the systematic parts are done.
  static let pctDepth = 3

  let budget: PortfolioBudget

  /// The most schedules the systematic part at `index` may run, given that those before it ran
  /// `schedulesBefore`: what is left of half the budget for the reduced and exhaustive searches,
  /// a tenth for each preemption bound.
  func schedulesCap(ofSystematicPart index: Int, schedulesBefore: Int) -> Int {
    index < Self.provingParts ? max(0, budget.schedules / 2 - schedulesBefore) : budget.schedules / 10
  }

  /// Nanoseconds into the search at which the systematic part at `index` stops, given that the
  /// preemption bounds started `boundsStart` nanoseconds into it; `nil` without a time budget.
  func timeShareEnd(ofSystematicPart index: Int, boundsStart: UInt64) -> UInt64? {
    guard let total = timeEnd else { return nil }
    if index < Self.provingParts { return total / 2 }
    let left = total - min(total, boundsStart)
    return boundsStart + left / 2 * UInt64(index - Self.provingParts + 1) / 3
  }

  /// Nanoseconds into the search at which the whole search stops; `nil` without a time budget.
  var timeEnd: UInt64? { budget.time?.clampedNanoseconds }
}
