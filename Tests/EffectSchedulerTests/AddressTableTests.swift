@testable import EffectScheduler
import Testing

@Suite("The race detection's table of words by address")
struct AddressTableTests {
  @Test("insertions, removals and removals of a range agree with a dictionary")
  func agreesWithADictionary() {
    var table = AddressTable<Int>()
    var reference: [UInt: Int] = [:]
    var state: UInt64 = 12_345
    func next(_ bound: UInt) -> UInt {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt(state >> 33) % bound
    }
    for round in 0..<20_000 {
      // Addresses of 8-byte words, crowded so that probes collide and removals shift keys back.
      let key = 0x1000 + next(512) * 8
      switch next(10) {
      case 0..<5:
        let slot = table.slot(of: key) { round }
        if reference[key] == nil { reference[key] = round }
        #expect(table[slot: slot] == reference[key])
      case 5..<9:
        table.remove(key)
        reference[key] = nil
      default:
        let start = 0x1000 + next(512) * 8
        let range = start..<start + next(64) * 8
        table.removeAll(in: range)
        reference = reference.filter { !range.contains($0.key) }
      }
      #expect(table.count == reference.count)
    }
    for (key, value) in reference { #expect(table[slot: table.slot(of: key) { -1 }] == value) }
  }
}
