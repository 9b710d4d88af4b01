import EffectScheduler

/// The timers due at each step of a run where the timer offered was due already, looked up by
/// step (see ``Trace/dueTimerOffers``): each step's offer is a stretch of the timers set for its
/// instant, so a run with thousands of timers due together costs a step a few lookups, not a
/// read of every timer due.
struct DueTimers {
  /// The offers of the steps analysed, in order.
  private var offers: [DueTimerOffer] = []
  /// The position in ``offers`` of each step's first offer.
  private var firstOffer: [Int: Int] = [:]
  /// The timers the run set for each instant, in the order set.
  private var setFor: [Duration: [TimerSetting]] = [:]
  /// The positions among the timers set for an instant of those whose sleep is a task's, or no
  /// known task's, ascending.
  private var positionsOf: [TimerOwner: [Int]] = [:]

  /// A sleeping task, or none known, and the instant its timer is due at.
  private struct TimerOwner: Hashable {
    let task: TaskID?
    let deadline: Duration
  }

  /// Takes the offers of the first `steps` steps of `trace`, in place of those held.
  mutating func fill(_ trace: Trace, steps: Int) {
    offers.removeAll(keepingCapacity: true)
    firstOffer.removeAll(keepingCapacity: true)
    setFor.removeAll(keepingCapacity: true)
    positionsOf.removeAll(keepingCapacity: true)
    for offer in trace.dueTimerOffers where offer.step < steps {
      if firstOffer[offer.step] == nil { firstOffer[offer.step] = offers.count }
      offers.append(offer)
    }
    guard !offers.isEmpty else { return }
    for setting in trace.timersSet {
      let owner = TimerOwner(task: setting.owner, deadline: setting.deadline)
      positionsOf[owner, default: []].append(setFor[setting.deadline, default: []].count)
      setFor[setting.deadline, default: []].append(setting)
    }
  }

  /// Whether the timer offered at `step` was due already.
  func hasOffer(at step: Int) -> Bool { firstOffer[step] != nil }

  /// The steps with an offer, each with the timer offered first.
  var firstOffered: some Sequence<(step: Int, timer: TimerSetting)> {
    firstOffer.lazy.compactMap { step, index in
      let offer = offers[index]
      guard let position = offer.timers.first, let timer = setFor[offer.deadline]?[position] else { return nil }
      return (step, timer)
    }
  }

  /// Whether a step that touched `objects`, at which the timers offered were due already, touched
  /// one of those timers: the timers due at their instant, or the task of any of them (any
  /// step, for a timer of no known task); `nil` for a step with no such offer.
  func touchesTimerDue(at step: Int, objects: ObjectSet) -> Bool? {
    guard var index = firstOffer[step] else { return nil }
    while index < offers.count, offers[index].step == step {
      let offer = offers[index]
      index += 1
      guard !offer.timers.isEmpty else { continue }
      if objects.contains(.timersDue(at: offer.deadline)) || has(TimerOwner(task: nil, deadline: offer.deadline), in: offer.timers) {
        return true
      }
      for object in objects where object.kind == .task {
        if has(TimerOwner(task: TaskID(object.index), deadline: offer.deadline), in: offer.timers) { return true }
      }
    }
    return false
  }

  /// Whether `owner` set a timer at one of `positions`.
  private func has(_ owner: TimerOwner, in positions: Range<Int>) -> Bool {
    guard let owned = positionsOf[owner] else { return false }
    let first = owned.partitionPoint { $0 >= positions.lowerBound }
    return first < owned.count && owned[first] < positions.upperBound
  }
}
