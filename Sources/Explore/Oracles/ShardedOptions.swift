/// How the shards whose schedules pass through one branch of a sharded depth-first search share
/// its options out, as one of them, `shard`, sees it.
///
/// The shards whose schedules pass through a branch form a range of shard numbers (counting from
/// 0 here): all of them at the first branch. With at least as many options as shards, the first
/// options go round-robin, one shard each, as many rounds as there are whole ones; the options left
/// over stay shared by the whole range. With fewer options than shards, each option goes to its
/// own slice of the range. Either way `shard` has a share in at least one option, so its search
/// never runs into a branch with nothing to try, and the ranges only shrink, down to one shard.
///
/// The options `shard` has a share in are numbered from 0 in the order it tries them, which keeps
/// the order of the branch's own options.
struct ShardedOptions: Hashable, Sendable {
  /// The shards whose schedules pass through the branch.
  let group: Range<Int>
  /// The shard whose share this is, in `group`.
  let shard: Int
  /// How many options the branch has.
  let options: Int

  /// How many whole rounds of one option a shard there are.
  private var rounds: Int { options / group.count }
  /// The shard's place in its group.
  private var place: Int { shard - group.lowerBound }

  /// How many of the branch's options the shard has a share in.
  var count: Int {
    guard rounds > 0 else { return 1 }
    return rounds + options - rounds * group.count
  }

  /// The branch's option that is the shard's `own`-th.
  func option(_ own: Int) -> Int {
    guard rounds > 0 else {
      // Option o's slice starts o · group.count / options places into the group, rounded down:
      // the shard's option is the last whose slice starts at or before its place.
      return ((place + 1) * options - 1) / group.count
    }
    return own < rounds ? place + own * group.count : own + rounds * (group.count - 1)
  }

  /// The shards whose schedules pass through the shard's `own`-th option.
  func group(below own: Int) -> Range<Int> {
    guard rounds > 0 else {
      let option = option(own)
      return group.lowerBound + option * group.count / options..<group.lowerBound + (option + 1) * group.count / options
    }
    return own < rounds ? shard..<shard + 1 : group
  }
}
