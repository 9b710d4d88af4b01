import EffectScheduler

/// A reduced search whose first run is too wide to analyse becomes a search of every schedule.
///
/// A run with more jobs ready at once than the race search has columns for
/// (``RacePass/maxColumns``) is not analysed: the search then tries every option at each of its
/// choice points, as ``DepthFirstSearch`` does, but it would first have kept every choice point's
/// whole list of ready jobs, and copied them all again for the analysis that then declines: time
/// and memory of the run's steps times its tasks. So when its first run grows that wide, the
/// search hands that run, and every one after, to a depth-first search of every schedule, which
/// keeps only the jobs each choice point adds. That search tries more schedules than the reduced
/// one would have where later runs are narrow, never fewer, so it claims every schedule when it
/// ends.
///
/// Only a search of its own does so: one whose tree several searchers share, or a shard, keeps
/// its choice points for the others.
extension ReducedDepthFirstSearch {
  /// Hands the first run, at `step`, where `ready` are the jobs ready, to a depth-first search
  /// that takes the same path so far: the first ready job at each choice point, as the first run
  /// of a search of its own always does. Returns that search's choice here.
  mutating func becomeWide(at step: Int, among ready: [ReadyJob]) throws -> Int {
    assert(choices.allSatisfy { $0 == 0 }, "a first run took a job other than the first")
    var search = DepthFirstSearch()
    _ = search.beginRun()
    for (depth, point) in path.enumerated() {
      _ = try search.nextJob(among: point.ready, step: depth)
    }
    truncatePath(to: 0)
    maySleep = []
    let position = try search.nextJob(among: ready, step: step)
    wide = search
    return position
  }

  /// ``beginRun()`` once the search is wide: the depth-first search's next run, if any.
  mutating func beginWideRun() -> Bool {
    guard wide!.beginRun() else {
      searchDidEnd()
      return false
    }
    return true
  }
}
