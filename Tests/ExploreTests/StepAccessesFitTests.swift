import EffectScheduler
@testable import Explore
import Testing

/// The facts of a run are worked out only when its ready jobs, the positions picked and its trace
/// fit together (``StepAccesses/fill(ready:chosen:trace:leftWaiting:assumesNoUnseenSharing:resumingFrom:sharing:)``);
/// a search whose run does not fit tries every option of its choice points instead.
@Suite("Facts of a run that does not fit")
struct StepAccessesFitTests {
  private static let jobs = [ReadyJob(task: TaskID(0)), ReadyJob(task: TaskID(1))]

  /// A position beyond the jobs ready at its step, or before the first, names no job: the run
  /// does not fit, where it once read the next step's jobs or beyond the lists.
  @Test("a position outside the jobs ready at its step does not fit", arguments: [2, 3, -1])
  func positionOutsideItsStep(position: Int) {
    let ready = ReadyLists([Self.jobs, [Self.jobs[1]]])
    #expect(StepAccesses(ready: ready, chosen: [position, 0], trace: Trace(steps: 2), leftWaiting: false) == nil)
    // The same lists with positions inside them fit.
    #expect(StepAccesses(ready: ready, chosen: [0, 0], trace: Trace(steps: 2), leftWaiting: false) != nil)
  }

  /// The choice to fire a timer, offered last, is a position inside the step's list.
  @Test("the timer offered last is a position that fits")
  func timerFits() throws {
    let facts = try #require(
      StepAccesses(ready: ReadyLists([Self.jobs + [.timer]]), chosen: [2], trace: Trace(steps: 1), leftWaiting: false))
    #expect(facts.timerPositions == [2])
    #expect(facts.firesTimer == [true])
    #expect(facts.threads == [.clock])
  }

  /// A run that stopped looking for the tasks each step cancelled, having too many live, cannot
  /// say which step cancelled a task.
  @Test("a run that stopped watching cancellations does not fit")
  func unwatchedCancellations() {
    var trace = Trace(steps: 1)
    #expect(StepAccesses(ready: ReadyLists([Self.jobs]), chosen: [0], trace: trace, leftWaiting: false) != nil)
    trace.cancellationsUnwatchedFrom = 0
    #expect(StepAccesses(ready: ReadyLists([Self.jobs]), chosen: [0], trace: trace, leftWaiting: false) == nil)
  }
}
