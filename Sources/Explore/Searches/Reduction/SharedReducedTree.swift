import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// The choice points of one reduced search that several searchers share, each running its own
/// schedules (``ReducedDepthFirstSearch/init(sharing:assumesNoUnseenSharing:)``): parallel
/// dynamic partial-order reduction.
///
/// A searcher takes the next option still to try at the deepest choice point of its own path, as
/// the search of one searcher does; with none left there, it takes one at the shallowest choice
/// point of the tree that has one, where another searcher's run put it, and follows the tree's
/// path to it. A run's races may call for options at any choice point of its path, above the one
/// it started from too, so a choice point stays in the tree for as long as a searcher's path
/// passes through it or an option is left to try in it or below. The search is over when no
/// option is left anywhere and no searcher's run is under way, since only a run adds options.
///
/// The options explored at a choice point are kept in the order their first runs ended, whichever
/// searcher ran them, and each sleeps in the options after it: the order one searcher would have
/// explored them in. So the searchers together try one schedule of every class, as one would,
/// and a few more where one took an option before another's run had shown it asleep.
final class SharedReducedTree: Sendable {
  private struct State {
    /// The first choice point, once a run has made it.
    var root: ReducedChoicePoint?
    var firstRunTaken = false
    /// The runs under way, whose races may still add options.
    var runsUnderWay = 0
    /// Whether the search stopped before its end: at a failure, a limit or a deadline.
    var abandoned = false
  }

  /// What a searcher does next.
  enum Turn {
    /// Run the path it holds now, whose last choice point takes `option`; the options that may
    /// sleep past the path's end are `maySleep`.
    case take(option: Int, maySleep: [StepFootprint])
    /// Make the search's first run.
    case firstRun
    /// Wait: runs under way may add options.
    case wait
    /// Every option of every choice point has been tried.
    case finished
    /// The search stopped.
    case abandoned
  }

  private let state = Mutex(State())
  private let metPairs = Mutex<Set<SwapProbes.Pair>>([])

  /// Whether `pair` is met for the first time in the whole search.
  func meet(_ pair: SwapProbes.Pair) -> Bool { metPairs.withLock { $0.insert(pair).inserted } }

  /// Lets the other searchers' runs go on for a moment, for a searcher with nothing to take.
  func waitBriefly() { usleep(50) }

  /// Stops the search: searchers waiting for options stop waiting.
  func abandon() { state.withLock { $0.abandoned = true } }

  /// What the searcher whose path is `path`, with `choices`, does next. It leaves the choice
  /// points with nothing left to try from the end of its path, and a subtree cut off; takes the
  /// next option of its deepest one left, or else the shallowest option left in the tree, its path
  /// then being the tree's path to it. `published` is how many of the path's choice points are in
  /// the tree.
  func nextTurn(path: inout [ReducedChoicePoint], choices: inout [Int], published: inout Int) -> Turn {
    state.withLock { state in
      if state.abandoned { return .abandoned }
      if let cut = path.firstIndex(where: \.cutOff) {
        while path.count > cut { leave(&path, &choices, state: &state) }
      }
      published = path.count
      while let last = path.last {
        if let (option, maySleep) = last.takeNextOption() {
          choices[path.count - 1] = option
          state.runsUnderWay += 1
          return .take(option: option, maySleep: maySleep)
        }
        leave(&path, &choices, state: &state)
        published = path.count
      }
      if !state.firstRunTaken {
        state.firstRunTaken = true
        state.runsUnderWay += 1
        return .firstRun
      }
      if let root = state.root, let found = Self.shallowestWork(from: root) {
        path = found.path
        choices = found.choices
        published = path.count
        for point in path { point.visitors += 1 }
        if let (option, maySleep) = path[path.count - 1].takeNextOption() {
          choices[path.count - 1] = option
          state.runsUnderWay += 1
          return .take(option: option, maySleep: maySleep)
        }
      }
      return state.runsUnderWay == 0 ? .finished : .wait
    }
  }

  /// Ends the searcher's run: adds the path's choice points beyond the `published` first to the
  /// tree, then lets `update` follow the run's races and sleeping options on the path, under the
  /// lock, as other searchers may change its choice points meanwhile. `update` returns the choice
  /// point at which the run took an option asleep, if it did: the subtree past it is cut off.
  func endRun(
    path: inout [ReducedChoicePoint], choices: inout [Int], published: inout Int, steps: Int,
    update: ([ReducedChoicePoint], [Int]) -> Int?
  ) {
    state.withLock { state in
      state.runsUnderWay -= 1
      while path.count > steps {
        if path.count > published {
          path.removeLast()
          choices.removeLast()
        } else {
          leave(&path, &choices, state: &state)
        }
      }
      published = min(published, path.count)
      for index in published..<path.count {
        path[index].visitors += 1
        if index == 0 {
          state.root = path[0]
        } else {
          path[index - 1].children.append((choices[index - 1], path[index]))
        }
      }
      published = path.count
      guard let cut = update(path, choices), cut + 1 < path.count else { return }
      let below = path[cut + 1]
      below.cutOff = true
      path[cut].children.removeAll { $0.point === below }
      while path.count > cut + 1 { leave(&path, &choices, state: &state) }
      published = path.count
    }
  }

  /// Takes the last choice point off a searcher's path; one no path passes through any more, with
  /// nothing left to try in it or below, leaves the tree.
  private func leave(_ path: inout [ReducedChoicePoint], _ choices: inout [Int], state: inout State) {
    let point = path.removeLast()
    choices.removeLast()
    point.visitors -= 1
    guard point.visitors == 0, point.toTry.isEmpty, point.children.isEmpty else { return }
    if let parent = path.last {
      parent.children.removeAll { $0.point === point }
    } else if state.root === point {
      state.root = nil
    }
  }

  /// The path to the shallowest choice point in the tree from `root` with an option left to try,
  /// with the choices that lead there (the last one, its own, still to be taken).
  private static func shallowestWork(from root: ReducedChoicePoint) -> (path: [ReducedChoicePoint], choices: [Int])? {
    var level: [(path: [ReducedChoicePoint], choices: [Int])] = [([root], [0])]
    while !level.isEmpty {
      if let found = level.first(where: { !$0.path[$0.path.count - 1].toTry.isEmpty }) { return found }
      level = level.flatMap { entry in
        entry.path[entry.path.count - 1].children.map { child in
          var choices = entry.choices
          choices[choices.count - 1] = child.option
          return (entry.path + [child.point], choices + [0])
        }
      }
    }
    return nil
  }
}
