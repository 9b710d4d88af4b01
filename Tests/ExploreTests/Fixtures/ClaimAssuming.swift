import Explore

extension ExplorationSummary {
  /// Whether the exploration claims every schedule, resting on no assumption but those `allowed`:
  /// for programs that sleep with early timer firings (whose delayed runs are cut), take a lock
  /// the scheduler does not control, or are searched assuming no unseen sharing.
  func claimsEverySchedule(assuming allowed: Set<ExplorationAssumption>) -> Bool {
    claim.coversEverySchedule && Set(claim.assumptions).isSubset(of: allowed)
  }
}
