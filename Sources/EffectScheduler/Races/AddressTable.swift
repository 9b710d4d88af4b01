/// A table of values by address, with open addressing and linear probing: the race detection's
/// history of each word, looked up on every access of instrumented code, where `Dictionary`'s
/// seeded hashing took about a tenth of an instrumented run.
struct AddressTable<Value> {
  /// The keys, 0 for an empty slot (no word lies at address 0), and the values, in slots.
  private var keys: [UInt] = []
  private var values: [Value?] = []
  private(set) var count = 0

  /// The slot of `key`, or of the empty slot where it would go.
  private func probe(_ key: UInt) -> Int {
    let mask = keys.count - 1
    var slot = Int(truncatingIfNeeded: (key >> 3) &* 0x9E37_79B9_7F4A_7C15 >> 20) & mask
    while keys[slot] != 0, keys[slot] != key { slot = (slot + 1) & mask }
    return slot
  }

  /// The slot holding `key`, made with `make()` when absent. Valid until the next insertion or
  /// removal.
  mutating func slot(of key: UInt, orMaking make: () -> Value) -> Int {
    if (count + 1) * 4 > keys.count * 3 { grow() }
    let slot = probe(key)
    if keys[slot] == 0 {
      keys[slot] = key
      values[slot] = make()
      count += 1
    }
    return slot
  }

  /// The value in `slot`, which holds one.
  subscript(slot slot: Int) -> Value {
    get { values[slot]! }
    _modify { yield &values[slot]! }
  }

  /// Puts `value` at `key`.
  mutating func set(_ key: UInt, _ value: Value) {
    let slot = slot(of: key) { value }
    values[slot] = value
  }

  /// Removes `key`, shifting back the keys after it that probed past its slot.
  mutating func remove(_ key: UInt) {
    guard count > 0 else { return }
    let mask = keys.count - 1
    var hole = probe(key)
    guard keys[hole] != 0 else { return }
    count -= 1
    var next = (hole + 1) & mask
    while keys[next] != 0 {
      let home = Int(truncatingIfNeeded: (keys[next] >> 3) &* 0x9E37_79B9_7F4A_7C15 >> 20) & mask
      // The key at `next` may move into the hole if its home is not between the hole and it.
      if (next - home) & mask >= (next - hole) & mask {
        keys[hole] = keys[next]
        values[hole] = values[next]
        hole = next
      }
      next = (next + 1) & mask
    }
    keys[hole] = 0
    values[hole] = nil
  }

  /// Removes every key in `range`.
  mutating func removeAll(in range: Range<UInt>) {
    let kept = zip(keys, values).filter { $0.0 != 0 && !range.contains($0.0) }
    removeAll()
    for (key, value) in kept { set(key, value!) }
  }

  /// Removes every key, keeping the storage.
  mutating func removeAll() {
    guard count > 0 else { return }
    for slot in keys.indices where keys[slot] != 0 {
      keys[slot] = 0
      values[slot] = nil
    }
    count = 0
  }

  private mutating func grow() {
    let old = zip(keys, values).filter { $0.0 != 0 }
    let capacity = max(64, keys.count * 2)
    keys = Array(repeating: 0, count: capacity)
    values = Array(repeating: nil, count: capacity)
    count = 0
    for (key, value) in old { set(key, value!) }
  }
}
