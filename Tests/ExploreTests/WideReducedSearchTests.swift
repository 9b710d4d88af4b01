import EffectScheduler
@testable import Explore
import Testing

/// A made-up program with one step wider than the race search can analyse: one job, then
/// `width` jobs of distinct tasks, then two choices of two jobs each.
private struct WideProgram {
  let width: Int

  func ready(after choices: [Int]) -> [ReadyJob] {
    switch choices.count {
    case 0: [ReadyJob(task: TaskID(1))]
    case 1: (0..<width).map { ReadyJob(task: TaskID(2 + $0)) }
    case 2, 3: [ReadyJob(task: TaskID(1)), ReadyJob(task: TaskID(2))]
    default: []
    }
  }

  /// The choices of every run `search` makes, in order.
  func runs(_ search: inout some ExplorationSearch) throws -> [[Int]] {
    var runs: [[Int]] = []
    while search.beginRun() {
      var choices: [Int] = []
      while case let ready = self.ready(after: choices), !ready.isEmpty {
        choices.append(try search.nextJob(among: ready, step: choices.count))
      }
      try search.runDidFinish(steps: choices.count)
      #expect(!search.learnsFromTraces, "a wide search reads no trace")
      runs.append(choices)
    }
    return runs
  }
}

@Suite("A reduced search whose first run is too wide to analyse")
struct WideReducedSearchTests {
  @Test("becomes a search of every schedule: the same runs as the depth-first search, in its order")
  func becomesExhaustive() throws {
    let program = WideProgram(width: RacePass.maxColumns + 8)
    var reduced = ReducedDepthFirstSearch()
    var exhaustive = DepthFirstSearch()
    let reducedRuns = try program.runs(&reduced)
    let exhaustiveRuns = try program.runs(&exhaustive)
    #expect(reducedRuns.count == (RacePass.maxColumns + 8) * 4)
    #expect(reducedRuns == exhaustiveRuns)
    #expect(reduced.exhaustedSchedules && reduced.searchedEveryClass)
  }

  @Test("stays reduced, and keeps watching its runs, while its first run is narrow enough")
  func narrowStaysReduced() throws {
    let program = WideProgram(width: RacePass.maxColumns)
    var reduced = ReducedDepthFirstSearch()
    let began = reduced.beginRun()
    #expect(began)
    var choices: [Int] = []
    while case let ready = program.ready(after: choices), !ready.isEmpty {
      choices.append(try reduced.nextJob(among: ready, step: choices.count))
    }
    #expect(reduced.wide == nil && reduced.learnsFromTraces)
  }

  @Test("an explored program that starts more tasks than that at once still finds its bug")
  func wideProgramFindsItsBug() async throws {
    let tasks = RacePass.maxColumns + 8
    // Caught rather than expected with `#expect(throws:)`, which would render the failure's whole
    // trace, thousands of steps of over 500 tasks, more than once.
    do {
      // Neither the determinism check nor the shrinking of the failing schedule: each run is long.
      let configuration = ExploreConfiguration(progressInterval: nil, checksDeterminism: false, minimizationBudget: 0)
      try await explore(.reduced(maxSchedules: 10), configuration: configuration) {
        let log = OrderLog()
        let started = (0..<tasks).map { index in Task { await log.add(index) } }
        for task in started { await task.value }
        // Then a race of two tasks, whose other order the search's first schedules after the
        // first one try: they change the deepest choices first.
        let raced = OrderLog()
        async let first: Void = raced.add(1)
        async let second: Void = raced.add(2)
        _ = await (first, second)
        #expect(await raced.items == [1, 2])
      }
      Issue.record("the race after the wide part was not found")
    } catch {
      #expect(error.summary.contains("raced.items"), "\(error.summary)")
    }
  }
}

private actor OrderLog {
  var items: [Int] = []
  func add(_ item: Int) { items.append(item) }
}
