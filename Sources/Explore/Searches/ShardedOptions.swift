/// How the shards whose schedules pass through one branch of a sharded depth-first search share
/// its options out, as one of them sees it.
///
/// The search tree is split into ``slotsPerShard`` times as many slots as there are shards, and
/// slot `v` belongs to shard `v mod n` (counting from 0), so that each shard gathers several
/// pieces of the tree and unevenly sized pieces even out. The slots whose schedules pass through
/// a branch form a range: all of them at the first branch. With at least as many options as
/// slots, the first options go round-robin, one slot each, as many rounds as there are whole
/// ones; the options left over stay shared by the whole range. With fewer options than slots,
/// each option goes to its own slice of the range. Either way every slot has a share in at least
/// one option, so a shard's search never meets a branch with nothing to try, and the ranges only
/// shrink, down to one slot.
///
/// The options the shard has a share in are numbered from 0 in the order it tries them, which
/// keeps the order of the branch's own options.
struct ShardedOptions: Sendable {
  /// How many slots each shard has: enough pieces for their sizes to even out, few enough that
  /// the tree is split near its top.
  static let slotsPerShard = 8

  /// The slots whose schedules pass through the branch.
  let group: Range<Int>
  /// The shard whose share this is, counting from 0, and how many shards there are.
  let shard: (index: Int, count: Int)
  /// How many options the branch has.
  let options: Int
  /// The branch's options the shard has a share in, in order.
  private let owned: [Int]

  /// The slots of a whole search split among `shard.count` shards.
  static func allSlots(shards count: Int) -> Range<Int> { 0..<count * slotsPerShard }

  init(group: Range<Int>, shard: (index: Int, count: Int), options: Int) {
    self.group = group
    self.shard = shard
    self.options = options
    var owned: [Int] = []
    for option in 0..<options where Self.has(shard, aSlotIn: Self.slots(below: option, of: group, options: options)) {
      owned.append(option)
    }
    self.owned = owned
  }

  /// How many of the branch's options the shard has a share in.
  var count: Int { owned.count }

  /// The branch's option that is the shard's `own`-th.
  func option(_ own: Int) -> Int { owned[own] }

  /// The slots whose schedules pass through the shard's `own`-th option.
  func group(below own: Int) -> Range<Int> { Self.slots(below: owned[own], of: group, options: options) }

  /// The branch's options the shard has a share in, in order.
  var ownOptions: [Int] { owned }

  /// The slots whose schedules pass through the branch's `option`.
  func group(belowOption option: Int) -> Range<Int> { Self.slots(below: option, of: group, options: options) }

  /// Whether `slot` is one of the shard's.
  static func slot(_ slot: Int, isOf shard: (index: Int, count: Int)) -> Bool { slot % shard.count == shard.index }

  private static func has(_ shard: (index: Int, count: Int), aSlotIn slots: Range<Int>) -> Bool {
    // The shard's first slot from the start of the range on.
    let first = slots.lowerBound + (shard.index - slots.lowerBound % shard.count + shard.count) % shard.count
    return first < slots.upperBound
  }

  /// The slots whose schedules pass through `option` of a branch that `group` shares.
  private static func slots(below option: Int, of group: Range<Int>, options: Int) -> Range<Int> {
    let size = group.count
    let rounds = options / size
    guard rounds > 0 else {
      return group.lowerBound + option * size / options..<group.lowerBound + (option + 1) * size / options
    }
    guard option < rounds * size else { return group }
    let slot = group.lowerBound + option % size
    return slot..<slot + 1
  }
}
