@testable import Explore
import Testing

@Suite("Two searches taking turns")
struct AlternatingSearchTests {
  /// Two random searches, of 2 and 4 runs: they alternate, the first first, until the first has
  /// none left, then the second goes on alone.
  @Test("they take turns, and the one with runs left goes on alone")
  func takeTurns() {
    var search = AlternatingSearch(RandomSearch(schedules: 2, seed: 1), RandomSearch(schedules: 4, seed: 2))
    var turns: [Bool] = []
    while search.beginRun() { turns.append(search.secondsTurn) }
    #expect(turns == [false, true, false, true, true, true])
    #expect(search.runs == (first: 2, second: 4))
    let more = search.beginRun()
    #expect(!more)
  }

  @Test("the seed is that of the search whose turn it is")
  func seedFollowsTheTurn() {
    var search = AlternatingSearch(RandomSearch(schedules: 1, seed: 7), RandomSearch(schedules: 1, seed: 9))
    _ = search.beginRun()
    #expect(search.seed == 7)
    _ = search.beginRun()
    #expect(search.seed == 9)
  }
}
