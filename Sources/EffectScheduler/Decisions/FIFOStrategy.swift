/// Runs jobs in the order they became ready: the scheduler's default.
///
/// Tasks that suspend go to the back of the line, so tasks that each yield take turns:
/// three tasks A, B and C of three segments each run as A B C A B C A B C.
public struct FIFOStrategy: SchedulingStrategy, Sendable {
  /// Creates the first-in-first-out strategy.
  public init() {}

  /// Always the job that has waited longest.
  public mutating func nextJob(among ready: [ReadyJob], step: Int) -> Int { 0 }
}

extension SchedulingStrategy where Self == FIFOStrategy {
  /// Runs jobs in the order they became ready.
  public static var fifo: FIFOStrategy { FIFOStrategy() }
}
