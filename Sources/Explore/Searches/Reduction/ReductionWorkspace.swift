import EffectScheduler
import Synchronization

/// What a reduced search's analysis works in from run to run (``ReducedDepthFirstSearch``): the
/// race search, the run analysed last, and the facts filled again for each run. Their arrays grow
/// with the runs; a search that ends gives them back, emptied with their storage, to a few spares
/// the next search in the process starts from.
///
/// A search of a few short runs spent about a third of its analysis growing these arrays from
/// nothing: some 230 of the 350 allocations its analysis made. The choice points its path let go
/// are kept too, for the new choice points of its next runs (a search of the catalogue's lost
/// update made 34, each with a list of the options explored at it).
struct ReductionWorkspace {
  /// The search for races, kept from run to run.
  var racePass = RacePass()
  /// The choice points (by ``ReducedChoicePoint/serial``), choices and ready jobs of the run
  /// analysed last, whose pairs of steps taken as independent unseen were looked for if
  /// `pairsFound`.
  var analysed: (points: [Int], choices: [Int], ready: ReadyLists, pairsFound: Bool) = ([], [], ReadyLists(), false)
  /// The facts of the runs analysed lately, filled again for a new run once nothing else holds
  /// them (the race search keeps the last run's).
  var recentAccesses: [StepAccesses] = []
  /// Choice points no path holds any more, cleared, to be made new ones.
  private var spareChoicePoints: [ReducedChoicePoint] = []

  /// Workspaces given back, at most ``sparesKept``.
  private static let spares = Mutex<[ReductionWorkspace]>([])
  /// Enough for the searchers of a process that run one after another, or a few side by side.
  private static let sparesKept = 4
  /// The longest runs, and the most entries of the race search, a workspace kept may have room
  /// for: one grown by long runs of many tasks would hold megabytes for as long as the process
  /// lives, so it is let go instead.
  private static let stepsKept = 4_096
  private static let raceEntriesKept = 1 << 18

  /// Facts to fill for a run: one of ``recentAccesses`` that nothing else holds, or a new one,
  /// kept among them while there are fewer than two.
  mutating func reusableAccesses() -> StepAccesses {
    for index in recentAccesses.indices where isKnownUniquelyReferenced(&recentAccesses[index]) { return recentAccesses[index] }
    let facts = StepAccesses()
    if recentAccesses.count < 2 { recentAccesses.append(facts) }
    return facts
  }

  /// A new choice point: a spare one made new, or else one made.
  mutating func choicePoint(
    ready: [ReadyJob], tried: PositionSet, toTry: PositionSet = [], sharing: ShardedOptions? = nil
  ) -> ReducedChoicePoint {
    // One that a copy of this workspace also keeps is not this one's to reuse.
    guard var point = spareChoicePoints.popLast(), isKnownUniquelyReferenced(&point) else {
      return ReducedChoicePoint(ready: ready, tried: tried, toTry: toTry, sharing: sharing)
    }
    point.reset(ready: ready, tried: tried, toTry: toTry, sharing: sharing)
    return point
  }

  /// Removes the last choice point of `path`, and keeps it for a new one if nothing else holds it.
  mutating func letGoLast(of path: inout [ReducedChoicePoint]) {
    var point = path.removeLast()
    guard isKnownUniquelyReferenced(&point), spareChoicePoints.count < Self.stepsKept else { return }
    point.clear()
    spareChoicePoints.append(point)
  }

  /// A workspace given back by a search that ended, or a new one.
  static func take() -> ReductionWorkspace {
    spares.withLock { $0.popLast() } ?? ReductionWorkspace()
  }

  /// Gives `workspace` back, emptied, for another search, leaving an empty one in its place: it
  /// holds nothing of this search's. Taken out first, so that no copy shares its arrays.
  static func giveBack(_ workspace: inout ReductionWorkspace) {
    var given = ReductionWorkspace()
    swap(&given, &workspace)
    guard given.analysed.points.capacity <= stepsKept, given.racePass.storedEntries <= raceEntriesKept else { return }
    given.empty()
    spares.withLock { spares in
      if spares.count < sparesKept { spares.append(given) }
    }
  }

  /// Forgets every run analysed, keeping the storage.
  private mutating func empty() {
    racePass.reset()
    analysed.points.removeAll(keepingCapacity: true)
    analysed.choices.removeAll(keepingCapacity: true)
    analysed.ready.truncate(to: 0)
    analysed.pairsFound = false
    // Facts another holder still reads are not the workspace's to fill again.
    var kept: [StepAccesses] = []
    for index in recentAccesses.indices where isKnownUniquelyReferenced(&recentAccesses[index]) { kept.append(recentAccesses[index]) }
    recentAccesses = kept
  }
}
