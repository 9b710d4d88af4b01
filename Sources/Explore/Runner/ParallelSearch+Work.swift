import Dispatch
import EffectScheduler
import Synchronization

/// How a searcher gets its next schedule: one claimed within the limit, or work another searcher
/// hands over.
extension ParallelSearch {
  /// The number of the next schedule, or `nil` once the limit is reached or the deadline has
  /// passed, which stops the search.
  ///
  /// Without a limit, a searcher adds its runs to the shared count 64 at a time, keeping the
  /// others in `uncounted`, so searchers do not write the same memory after every run; the number
  /// is then the count so far, which is all a number means when searchers run at once.
  func claimSchedule(_ uncounted: inout Int) -> Int? {
    if let deadline, deadline.hasPassed {
      stopAtLimit()
      return nil
    }
    guard limit != nil else {
      uncounted += 1
      if uncounted == 64 {
        schedules.add(uncounted, ordering: .relaxed)
        uncounted = 0
      }
      return schedules.load(ordering: .relaxed) + uncounted
    }
    let number = schedules.add(1, ordering: .relaxed).newValue
    guard let limit, number > limit else { return number }
    schedules.subtract(1, ordering: .relaxed)
    stopAtLimit()
    return nil
  }

  /// A search given at the start not taken yet, or a subtree another searcher handed over,
  /// waiting for one if need be; `nil` once the search is over: ended, or every searcher waiting
  /// with nothing left.
  func takeWork() -> Search? {
    var waited = false
    while true {
      let work = state.withLock { state -> Work in
        if waited {
          state.waiting -= 1
          hungry.subtract(1, ordering: .relaxed)
        }
        if state.over { return .over }
        if let search = state.given.popLast() { return .given(search) }
        if let subtree = state.handedOver.popLast() { return .subtree(subtree) }
        guard state.waiting + 1 < searchers else {
          // Every other searcher waits too, and nothing is left: every schedule has been tried.
          state.over = true
          return .over
        }
        state.waiting += 1
        hungry.add(1, ordering: .relaxed)
        return .wait
      }
      switch work {
      case .given(let search):
        return search
      case .subtree(let subtree):
        return Search(subtree: subtree)
      case .over:
        for _ in 0..<searchers { workHandedOver.signal() }
        return nil
      case .wait:
        workHandedOver.wait()
        waited = true
      }
    }
  }
}
