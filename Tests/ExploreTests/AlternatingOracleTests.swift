@testable import Explore
import Testing

@Suite("Two oracles taking turns")
struct AlternatingOracleTests {
  /// Two random oracles, of 2 and 4 runs: they alternate, the first first, until the first has
  /// none left, then the second goes on alone.
  @Test("they take turns, and the one with runs left goes on alone")
  func takeTurns() {
    var oracle = AlternatingOracle(RandomOracle(schedules: 2, seed: 1), RandomOracle(schedules: 4, seed: 2))
    var turns: [Bool] = []
    while oracle.beginRun() { turns.append(oracle.secondsTurn) }
    #expect(turns == [false, true, false, true, true, true])
    #expect(oracle.runs == (first: 2, second: 4))
    let more = oracle.beginRun()
    #expect(!more)
  }

  @Test("the seed is that of the oracle whose turn it is")
  func seedFollowsTheTurn() {
    var oracle = AlternatingOracle(RandomOracle(schedules: 1, seed: 7), RandomOracle(schedules: 1, seed: 9))
    _ = oracle.beginRun()
    #expect(oracle.seed == 7)
    _ = oracle.beginRun()
    #expect(oracle.seed == 9)
  }
}
