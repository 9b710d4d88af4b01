import EffectScheduler
@testable import Explore
import Testing

@Suite("Choice points a reduced search reuses")
struct ChoicePointReuseTests {
  private static let jobs = [ReadyJob(task: TaskID(0)), ReadyJob(task: TaskID(1))]

  /// A choice point the path let go comes back as a new one: a new serial, the ready jobs and
  /// options given, and nothing of what it held before: no option explored, none asleep.
  @Test("a choice point let go comes back with nothing of its past")
  func reusedPointIsNew() throws {
    var workspace = ReductionWorkspace()
    var path = [workspace.choicePoint(ready: Self.jobs, tried: [0], toTry: [1])]
    // Known only by its identity, so that the test does not hold it when the path lets it go.
    let identity = ObjectIdentifier(path[0])
    let serial = path[0].serial
    let footprint = try #require(StepAccesses(ready: ReadyLists([Self.jobs]), chosen: [0], trace: Trace(steps: 1), leftWaiting: false))
      .footprint(ofStep: 0, job: Self.jobs[0])
    path[0].explored.append((0, footprint))
    path[0].sleeping = [footprint]
    workspace.letGoLast(of: &path)
    let again = workspace.choicePoint(ready: [Self.jobs[1]], tried: [0])
    #expect(ObjectIdentifier(again) == identity)
    #expect(again.serial != serial)
    #expect(again.ready == [Self.jobs[1]])
    #expect(again.tried == [0] && again.toTry.isEmpty)
    #expect(again.explored.isEmpty && again.sleeping.isEmpty)
  }

  /// A choice point something else still holds, as a shared tree's or a copy's would be, is neither
  /// cleared nor made a new one.
  @Test("a choice point held elsewhere is not reused")
  func heldPointIsNotReused() {
    var workspace = ReductionWorkspace()
    var path = [workspace.choicePoint(ready: Self.jobs, tried: [0])]
    let held = path[0]
    workspace.letGoLast(of: &path)
    let next = workspace.choicePoint(ready: Self.jobs, tried: [1])
    #expect(next !== held)
    // Nor is it cleared: its holder still reads it.
    #expect(held.ready == Self.jobs && held.tried == [0])
  }
}
