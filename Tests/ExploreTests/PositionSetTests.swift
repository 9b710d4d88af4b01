@testable import Explore
import Testing

@Suite("Positions in a ready list")
struct PositionSetTests {
  /// The positions come out least first, those kept as the word's bits before those kept beside
  /// it: a reversal that must try every option of a long ready list walks them so.
  @Test("a set of positions is walked least first, below 64 and beyond")
  func walkedLeastFirst() {
    let set = PositionSet([130, 3, 64, 0, 63, 70])
    #expect(Array(set) == [0, 3, 63, 64, 70, 130])
    #expect(set.contains(where: { $0 > 100 }))
    #expect(Array(PositionSet()) == [])
  }

  /// A new choice point's one option tried is made so, without an array literal's list.
  @Test("a set of one position holds that position alone, below 64 and beyond")
  func onePosition() {
    #expect(Array(PositionSet(5)) == [5])
    #expect(PositionSet(5) == [5])
    #expect(Array(PositionSet(99)) == [99])
    #expect(!PositionSet(5).contains(4))
  }
}
