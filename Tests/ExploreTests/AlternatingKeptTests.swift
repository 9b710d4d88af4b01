import EffectScheduler
@testable import Explore
import Testing

/// A search that takes the first job and notes what the scheduler said it kept at each step.
private struct KeptRecorder: ExplorationSearch {
  var told: [Int?] = []
  var runsLeft = 2

  mutating func beginRun() -> Bool {
    runsLeft -= 1
    return runsLeft >= 0
  }

  mutating func nextJob(among ready: [ReadyJob], step: Int) -> Int { nextJob(among: ready, step: step, kept: nil) }

  mutating func nextJob(among ready: [ReadyJob], step: Int, kept: Int?) -> Int {
    told.append(kept)
    return 0
  }
}

@Suite("Searches taking turns")
struct AlternatingKeptTests {
  /// PCT rebuilds its ordered ready jobs at each step it is told nothing of: the default
  /// portfolio's PCT, which takes turns with random, spent seconds a run doing so.
  @Test("the search whose turn it is hears what the scheduler kept")
  func keptReachesTheSearchWhoseTurnItIs() throws {
    var search = AlternatingSearch(KeptRecorder(), KeptRecorder())
    let ready = [ReadyJob(task: TaskID(1)), ReadyJob(task: TaskID(2))]
    let firstBegan = search.beginRun()
    try #require(firstBegan)
    _ = try search.nextJob(among: ready, step: 0, kept: nil)
    _ = try search.nextJob(among: ready, step: 1, kept: 1)
    let secondBegan = search.beginRun()
    try #require(secondBegan)
    _ = try search.nextJob(among: ready, step: 0, kept: 2)
    #expect(search.first.told == [nil, 1])
    #expect(search.second.told == [2])
  }
}
