import EffectScheduler
@testable import Explore
import Testing

@Suite("Depth-first search replaying its path")
struct DepthFirstSearchTests {
  /// Runs one schedule of a made-up program that offers `ready[step]` at each step, until the
  /// search's choices leave it nothing; returns the ready positions chosen.
  static func run(_ search: inout DepthFirstSearch, offering ready: [[ReadyJob]]) throws -> [Int] {
    var choices: [Int] = []
    for jobs in ready { choices.append(try search.nextJob(among: jobs, step: choices.count)) }
    return choices
  }

  /// Begins a run, which the search must have left.
  static func begin(_ search: inout DepthFirstSearch, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let began = search.beginRun()
    try #require(began, "the search ended early", sourceLocation: sourceLocation)
  }

  @Test("the second run replays the first up to its last branch and takes the next option there")
  func backtracks() throws {
    var search = DepthFirstSearch()
    let ready = [[ReadyJob(task: TaskID(1)), ReadyJob(task: TaskID(2))], [ReadyJob(task: TaskID(3)), ReadyJob(task: TaskID(4))]]
    var runs: [[Int]] = []
    while search.beginRun() { runs.append(try Self.run(&search, offering: ready)) }
    #expect(runs == [[0, 0], [0, 1], [1, 0], [1, 1]])
  }

  @Test("a replayed step whose ready jobs changed is a divergence naming the job the path chose there")
  func divergenceAtReplayedStep() throws {
    var search = DepthFirstSearch()
    let first = [[ReadyJob(task: TaskID(1)), ReadyJob(task: TaskID(2))], [ReadyJob(task: TaskID(3)), ReadyJob(task: TaskID(4))]]
    try Self.begin(&search)
    #expect(try Self.run(&search, offering: first) == [0, 0])
    try Self.begin(&search)
    // The second run tries #4 at step 1, but the program now offers #5 in its place.
    let changed = [first[0], [ReadyJob(task: TaskID(3)), ReadyJob(task: TaskID(5))]]
    let divergence = try #require(throws: ReplayDivergence.self) { try Self.run(&search, offering: changed) }
    #expect(divergence.step == 1)
    #expect(divergence.expected == .task(TaskID(4)))
    #expect(divergence.ready == changed[1])
    #expect(divergence.readyBefore == first[1])
  }

  @Test("a divergence whose ready jobs differ only in where they came from says so, never naming alike lists")
  func divergenceMessageTellsTheListsApart() throws {
    var search = DepthFirstSearch()
    let first = [[ReadyJob(task: TaskID(2)), ReadyJob(task: TaskID(4))], [ReadyJob(task: TaskID(3))]]
    try Self.begin(&search)
    _ = try Self.run(&search, offering: first)
    try Self.begin(&search)
    let changed = [[ReadyJob(task: TaskID(2), arrivedFromOutside: true), ReadyJob(task: TaskID(4))], first[1]]
    let divergence = try #require(throws: ReplayDivergence.self) { try Self.run(&search, offering: changed) }
    #expect(divergence.description.contains("(then #2, #4; now #2 from outside, #4)"), "\(divergence)")
  }

  @Test("after a branch is left behind, the branch taken in its place is checked against its own ready jobs")
  func divergenceAfterBacktracking() throws {
    var search = DepthFirstSearch()
    let ready = [[ReadyJob(task: TaskID(1)), ReadyJob(task: TaskID(2))], [ReadyJob(task: TaskID(3)), ReadyJob(task: TaskID(4))]]
    for _ in 0..<2 {
      try Self.begin(&search)
      _ = try Self.run(&search, offering: ready)
    }
    // The third run takes #2 at step 0, and offers other jobs at step 1: a new branch over them.
    try Self.begin(&search)
    let afterTwo = [ready[0], [ReadyJob(task: TaskID(5)), ReadyJob(task: nil, scheduledBy: TaskID(2))]]
    #expect(try Self.run(&search, offering: afterTwo) == [1, 0])
    try Self.begin(&search)
    let changed = [ready[0], [ReadyJob(task: TaskID(5)), ReadyJob(task: nil, scheduledBy: TaskID(1))]]
    let divergence = try #require(throws: ReplayDivergence.self) { try Self.run(&search, offering: changed) }
    #expect(divergence.step == 1)
    #expect(divergence.expected == .actorJob(position: 1))
  }
}
