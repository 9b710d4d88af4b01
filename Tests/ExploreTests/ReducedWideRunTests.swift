import EffectScheduler
@testable import Explore
import Testing

/// Hundreds of tasks live at once: a reduced search's analysis of such a run costs a clock entry
/// per live task at every step, so a run wider than the analysis takes is left unanalysed, and
/// the search tries every option at its choice points, as for a run that does not fit the model.
@Suite("A reduced search of a run too wide to analyse")
struct ReducedWideRunTests {
  /// The facts of a run in which `tasks` tasks each take a step, then each another: all of
  /// them live at once.
  private static func accesses(ofTasks tasks: Int) throws -> StepAccesses {
    let ready = (0..<2 * tasks).map { [ReadyJob(task: TaskID($0 % tasks))] }
    return try #require(
      StepAccesses(ready: ReadyLists(ready), chosen: Array(repeating: 0, count: 2 * tasks), trace: Trace(steps: 2 * tasks), leftWaiting: false))
  }

  @Test("a run of more tasks than the clocks take columns is not analysed")
  func wideRunIsNotAnalysed() throws {
    var pass = RacePass()
    #expect(pass.races(of: try Self.accesses(ofTasks: 4), sharing: 0)?.order.width == 4)
    #expect(pass.races(of: try Self.accesses(ofTasks: RacePass.maxColumns + 1), sharing: 0) == nil)
    #expect(pass.lastAccesses == nil)
  }

  @Test("a run of as many tasks as the clocks take is, and so is the next run after a wide one")
  func narrowRunIsAnalysed() throws {
    var pass = RacePass()
    #expect(pass.races(of: try Self.accesses(ofTasks: RacePass.maxColumns), sharing: 0) != nil)
    _ = pass.races(of: try Self.accesses(ofTasks: RacePass.maxColumns + 1), sharing: 0)
    let races = try #require(pass.races(of: try Self.accesses(ofTasks: 3), sharing: 0))
    #expect(races.order.precedes(0, 0))
  }
}
