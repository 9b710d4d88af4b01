/// How the default portfolio shares its ``PortfolioBudget`` among its parts.
///
/// The systematic parts run one after another: first exhaustive search, for at most half the
/// schedule budget and until half the time budget has passed at most; then preemption bounds 0,
/// 1 and 2, each for at most a tenth of the schedules, sharing half of the time left, a third of
/// that half each (time one leaves unused passes to the next). PCT and random, taking turns, get
/// the rest of both budgets: at least a fifth of the schedules and a quarter of the time. The
/// exhaustive part gets the largest shares so that a space it can finish within the budget, such
/// as a few thousand schedules, is settled completely, even on a loaded machine.
struct PortfolioPlan {
  /// The parts that search systematically, in the order they run.
  static let systematicParts: [PortfolioPart] = [.exhaustive, .preemptionBound(0), .preemptionBound(1), .preemptionBound(2)]
  /// The depth of the PCT runs, which take turns with random runs once the systematic parts are done.
  static let pctDepth = 3

  let budget: PortfolioBudget

  /// The most schedules the systematic part at `index` may run: half the budget for exhaustive
  /// search, a tenth for each preemption bound.
  func schedulesCap(ofSystematicPart index: Int) -> Int { index == 0 ? budget.schedules / 2 : budget.schedules / 10 }

  /// Nanoseconds into the search at which the systematic part at `index` stops, given that the
  /// preemption bounds started `boundsStart` nanoseconds into it; `nil` without a time budget.
  func timeShareEnd(ofSystematicPart index: Int, boundsStart: UInt64) -> UInt64? {
    guard let total = timeEnd else { return nil }
    if index == 0 { return total / 2 }
    let left = total - min(total, boundsStart)
    return boundsStart + left / 2 * UInt64(index) / 3
  }

  /// Nanoseconds into the search at which the whole search stops; `nil` without a time budget.
  var timeEnd: UInt64? { budget.time?.clampedNanoseconds }
}
