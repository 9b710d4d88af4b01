@testable import Explore
import Testing

@Suite("Arrays the analysis keeps from run to run")
struct KeptStorageTests {
  /// A pass takes its kept array emptied, with the storage it grew, and leaves nothing behind in
  /// its place: a pass that found the old elements, or a kept array that still held them, would
  /// mix one run's facts into the next.
  @Test("taking a kept array's storage empties it and leaves an empty array in its place")
  func takingStorage() {
    var kept = Array(0..<100)
    let capacity = kept.capacity
    var taken = Array.takingStorage(of: &kept)
    #expect(taken.isEmpty)
    #expect(taken.capacity >= capacity)
    #expect(kept.isEmpty)
    taken.append(7)
    #expect(kept.isEmpty)
    kept = taken
    #expect(Array.takingStorage(of: &kept).isEmpty)
  }
}
