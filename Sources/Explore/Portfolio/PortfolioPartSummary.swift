/// How far one part of the default portfolio got in an exploration that found no failure.
public struct PortfolioPartSummary: Hashable, Sendable, CustomStringConvertible {
  /// Why a part stopped.
  public enum Ending: Hashable, Sendable {
    /// It tried every schedule it covers: one schedule of every class, for the reduced part;
    /// every schedule there is, for the exhaustive part; every schedule with exactly that many
    /// preemptions, for a preemption bound.
    case triedEverySchedule
    /// The reduced part stopped, having tried every class or not, because it could not justify
    /// the steps it took as independent without seeing what they share (``ReductionCheck``), so
    /// the exhaustive part took over.
    case unjustified
    /// It used up its share of the budget, and the next part took over.
    case usedItsShare
    /// The budget of the whole portfolio ran out during it.
    case budgetRanOut
  }

  /// Which part.
  public var part: PortfolioPart
  /// How many schedules it ran.
  public var schedules: Int
  /// Why it stopped.
  public var ending: Ending

  /// Whether the part ran once the portfolio had settled the schedules in which critical sections
  /// of locks the scheduler does not control run whole, pausing between the critical sections of
  /// each step (`SchedulerConfiguration.pausesBetweenCriticalSections`).
  public var splitsCriticalSections: Bool

  /// Creates a part's summary.
  package init(part: PortfolioPart, schedules: Int, ending: Ending, splitsCriticalSections: Bool = false) {
    self.part = part
    self.schedules = schedules
    self.ending = ending
    self.splitsCriticalSections = splitsCriticalSections
  }

  /// `preemption bound 1: 36 schedules, all it covers`, or `reduced DFS between critical sections:
  /// 120 schedules, until the budget ran out`.
  public var description: String {
    let why =
      switch ending {
      case .triedEverySchedule: "all it covers"
      case .unjustified: "until it could not justify a claim"
      case .usedItsShare: "its share of the budget"
      case .budgetRanOut: "until the budget ran out"
      }
    return "\(part)\(splitsCriticalSections ? " between critical sections" : ""): \(schedules) schedules, \(why)"
  }
}
