/// A small, fast random number generator whose sequence depends only on its seed (SplitMix64).
///
/// Its output is fixed by this file, not by the standard library, so a seed printed in a failure
/// report replays the same schedule on every toolchain and platform.
package struct SeededGenerator: RandomNumberGenerator, Hashable, Sendable {
  private var state: UInt64

  /// Creates a generator whose sequence is fixed by `seed`.
  package init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }

  /// A number in `0..<count`, computed the same way on every platform. `count` must be positive.
  package mutating func below(_ count: Int) -> Int {
    Int(truncatingIfNeeded: next() % UInt64(count))
  }
}
