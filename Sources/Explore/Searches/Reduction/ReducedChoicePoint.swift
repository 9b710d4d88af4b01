import EffectScheduler
import Synchronization

/// A choice point of a reduced search (``ReducedDepthFirstSearch``): the jobs ready there, the
/// options tried and still to try, and what the options explored touched.
///
/// A class, so that the searchers of one parallel search (``SharedReducedTree``) share the choice
/// points of their paths: a run of one may add an option to try to a choice point above the one
/// it started from, where another searcher's path also passes. Searchers change a shared choice
/// point only under the tree's lock; a search of its own changes its path alone. So its
/// properties are left unchecked for exclusive access, which checking at every use cost about a
/// microsecond a search of a few short runs.
final class ReducedChoicePoint: @unchecked Sendable {
  /// A number no other choice point of the process has: a run's analysis tells by it the choice
  /// points it shares with the run analysed before, without holding on to those.
  @exclusivity(unchecked) private(set) var serial: Int
  @exclusivity(unchecked) private(set) var ready: [ReadyJob]
  /// The positions tried here, or about to be.
  @exclusivity(unchecked) var tried: PositionSet
  /// The positions still to try here.
  @exclusivity(unchecked) var toTry: PositionSet
  /// What the step of each option explored here touched, in the order they were explored.
  @exclusivity(unchecked) var explored: [(option: Int, footprint: StepFootprint)] = []
  /// In a sharded search, how the slots whose schedules pass through here share its options,
  /// when more than one does; every option the shard has a share in is tried here.
  @exclusivity(unchecked) private(set) var sharing: ShardedOptions?
  /// The options asleep here in the last run that passed through, as it found them.
  @exclusivity(unchecked) var sleeping: [StepFootprint] = []

  /// In a shared tree, the choice points reached from here, by the option taken to reach them.
  @exclusivity(unchecked) var children: [(option: Int, point: ReducedChoicePoint)] = []
  /// In a shared tree, how many searchers' paths pass through here.
  @exclusivity(unchecked) var visitors = 0
  /// In a shared tree, whether a run found the subtree from here redundant (it took an option
  /// asleep above it), and cut it from the tree: searchers still in it leave.
  @exclusivity(unchecked) var cutOff = false

  private static let serials = Atomic<Int>(0)

  init(ready: [ReadyJob], tried: PositionSet, toTry: PositionSet = [], sharing: ShardedOptions? = nil) {
    serial = Self.serials.add(1, ordering: .relaxed).newValue
    self.ready = []
    self.ready.append(contentsOf: ready)
    self.tried = tried
    self.toTry = toTry
    self.sharing = sharing
  }

  /// Makes this choice point, which nothing else holds, a new one, as `init` would, keeping the
  /// storage of its lists: a reduced search of its own reuses the choice points its path lets go
  /// (``ReductionWorkspace/choicePoint(ready:tried:toTry:sharing:)``).
  ///
  /// The ready jobs are copied into the choice point's own list, here and in `init`, rather than
  /// the scheduler's list being kept: the scheduler removes the job it runs from that list next,
  /// and a list still held elsewhere is copied whole then, one allocation a step.
  func reset(ready: [ReadyJob], tried: PositionSet, toTry: PositionSet = [], sharing: ShardedOptions? = nil) {
    serial = Self.serials.add(1, ordering: .relaxed).newValue
    self.ready.removeAll(keepingCapacity: true)
    self.ready.append(contentsOf: ready)
    self.tried = tried
    self.toTry = toTry
    self.sharing = sharing
  }

  /// Lets go of all this choice point holds, keeping the storage of its lists of ready jobs, of
  /// options explored and of options asleep.
  func clear() {
    ready.removeAll(keepingCapacity: true)
    explored.removeAll(keepingCapacity: true)
    sleeping.removeAll(keepingCapacity: true)
    children = []
    visitors = 0
    cutOff = false
  }

  /// Whether `option` runs a job that sleeps among `sleeping`. A job that appears twice in the
  /// ready list cannot be told from its twin, and is taken for awake.
  func isAsleep(_ option: Int, among sleeping: [StepFootprint]) -> Bool {
    guard !sleeping.isEmpty else { return false }
    let job = ready[option]
    return sleeping.contains { $0.job == job } && ready.lazy.filter { $0 == job }.count == 1
  }

  /// Takes the next option still to try here, and returns it with the options that may sleep
  /// past the path's end in the run that takes it: those asleep here in the last run, and the
  /// other options explored here.
  func takeNextOption() -> (option: Int, maySleep: [StepFootprint])? {
    var maySleep: [StepFootprint] = []
    return takeNextOption(maySleep: &maySleep).map { ($0, maySleep) }
  }

  /// ``takeNextOption()``, which puts the options that may sleep in `maySleep`, in place of what
  /// it held, keeping its storage.
  func takeNextOption(maySleep: inout [StepFootprint]) -> Int? {
    guard let next = toTry.min() else { return nil }
    toTry.remove(next)
    tried.insert(next)
    maySleep.removeAll(keepingCapacity: true)
    maySleep.append(contentsOf: sleeping)
    for option in explored where option.option != next { maySleep.append(option.footprint) }
    return next
  }
}
