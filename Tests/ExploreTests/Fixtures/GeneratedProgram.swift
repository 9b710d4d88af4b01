import Effects
import Explore
import Synchronization

/// A small random program of actors and tasks, for comparing searches: two or three tasks doing one
/// or two things each to one or two actors, or sleeping, the first perhaps waiting at a gate the
/// last opens; with cancellation, tasks also log whether they are cancelled, and one task cancels
/// another (or the root cancels the group, after a yield).
/// At its end it reports every actor's log.
struct GeneratedProgram: Sendable, CustomStringConvertible {
  enum Operation: Sendable, CustomStringConvertible {
    /// Appends to a cell's log in one actor job.
    case append(cell: Int)
    /// Reads a cell's log length, suspends, and appends what it read: reentrancy shows.
    case appendAcrossSuspension(cell: Int)
    case yield
    /// Sleeps on the virtual clock.
    case sleep(milliseconds: Int)
    /// Waits until the gate is open.
    case waitAtGate
    /// Opens the gate.
    case openGate
    /// Appends whether the task is cancelled to a cell's log, read before the hop.
    case logCancelled(cell: Int)
    /// Cancels another task.
    case cancel(task: Int)
    /// Yields the task's tag into the program's stream, which no actor guards.
    case yieldToStream
    /// Runs an `async let` child that logs whether it is cancelled to a cell; awaited, or left
    /// behind, so that the end of its scope cancels it.
    case asyncLet(cell: Int, awaited: Bool)
    /// Runs a nested task group of two children, one telling whether it is cancelled, cancelling
    /// the group as soon as both are added or not, and logs to a cell what they returned in the
    /// order they completed.
    case group(cell: Int, cancelled: Bool)
    /// Appends the task's tag to a log on the main actor.
    case onMainActor
    /// Reads a counter behind an `EffectMutex`, yields, and stores what it read plus one: two
    /// tasks doing so may lose an update.
    case lockedIncrement

    var description: String {
      switch self {
      case .append(let cell): "append(\(cell))"
      case .appendAcrossSuspension(let cell): "appendAcross(\(cell))"
      case .yield: "yield"
      case .sleep(let milliseconds): "sleep(\(milliseconds))"
      case .waitAtGate: "wait"
      case .openGate: "open"
      case .logCancelled(let cell): "logCancelled(\(cell))"
      case .cancel(let task): "cancel(t\(task))"
      case .yieldToStream: "yieldToStream"
      case .asyncLet(let cell, let awaited): "asyncLet(\(cell)\(awaited ? "" : ", left"))"
      case .group(let cell, let cancelled): "group(\(cell)\(cancelled ? ", cancelled" : ""))"
      case .onMainActor: "mainActor"
      case .lockedIncrement: "lockedIncrement"
      }
    }
  }

  let seed: UInt64
  let cells: Int
  /// Each task's operations, in order.
  let tasks: [[Operation]]
  /// Whether the tasks are children of a task group rather than plain `Task {}`s.
  let asGroupChildren: Bool
  /// Whether the root cancels the group once it has added the children and yielded.
  let cancelsGroup: Bool
  /// The buffering policy of the stream tasks yield into, which the root drains at the end: `0`
  /// for no stream, then unbounded, newest one, oldest one.
  let streamPolicy: Int

  var description: String {
    "program \(seed) of \(tasks.count) tasks: \(cells) cells, \(asGroupChildren ? "group" : "Task {}")\(cancelsGroup ? " cancelled" : "")"
      + "\(streamPolicy > 0 ? " stream \(streamPolicy)" : "") \(tasks)"
  }

  /// - Parameter groupsAndLocksOnly: with `withStructure`, whether the structured operations are
  ///   only nested groups and lost updates behind a drop-in lock, the two that make programs large.
  init(
    seed: UInt64, taskCount: Int = 2, withCancellation: Bool = false, withStreams: Bool = false, withStructure: Bool = false,
    groupsAndLocksOnly: Bool = false
  ) {
    var generator = SplitMix(state: seed)
    self.seed = seed
    let cells = generator.next(below: 2) + 1
    self.cells = cells
    asGroupChildren = generator.next(below: 2) == 0
    // Tasks of one or two operations keep the full search small enough to run it a thousand times
    // (with a structured operation to come, none for the first task and one for the others).
    var tasks = (0..<taskCount).map { index in
      (0..<(withStructure ? min(index, 1) : generator.next(below: 2) + 1)).map { _ -> Operation in
        switch generator.next(below: 6) {
        case 0, 1: .append(cell: generator.next(below: cells))
        case 2, 3: .appendAcrossSuspension(cell: generator.next(below: cells))
        case 4: .yield
        default: .sleep(milliseconds: generator.next(below: 2) + 1)
        }
      }
    }
    // One program in three has a gate: the first task waits at it, the last opens it.
    if generator.next(below: 3) == 0 {
      tasks[0].insert(.waitAtGate, at: generator.next(below: tasks[0].count + 1))
      tasks[tasks.count - 1].insert(.openGate, at: generator.next(below: tasks[tasks.count - 1].count + 1))
    }
    var cancelsGroup = false
    if withCancellation {
      // Some tasks log whether they are cancelled, and someone cancels.
      for index in tasks.indices where generator.next(below: 2) == 0 {
        tasks[index].insert(.logCancelled(cell: generator.next(below: cells)), at: generator.next(below: tasks[index].count + 1))
      }
      if asGroupChildren {
        cancelsGroup = true
      } else {
        let canceller = generator.next(below: taskCount)
        let target = (canceller + 1 + generator.next(below: taskCount - 1)) % taskCount
        tasks[canceller].insert(.cancel(task: target), at: generator.next(below: tasks[canceller].count + 1))
      }
    }
    var streamPolicy = 0
    if withStreams {
      // Every task yields once into a stream of one of the three policies.
      streamPolicy = generator.next(below: 3) + 1
      for index in tasks.indices {
        tasks[index].insert(.yieldToStream, at: generator.next(below: tasks[index].count + 1))
      }
    }
    if withStructure {
      // The first task, and the others one in two, get one of: an `async let`, a nested group, a
      // main-actor hop, or an update behind a drop-in lock (two tasks, when one does, so that
      // updates can be lost).
      for index in tasks.indices where index == 0 || generator.next(below: 2) == 0 {
        let operation: Operation =
          switch groupsAndLocksOnly ? 1 + 2 * generator.next(below: 2) : generator.next(below: 4) {
          case 0: .asyncLet(cell: generator.next(below: cells), awaited: generator.next(below: 2) == 0)
          case 1: .group(cell: generator.next(below: cells), cancelled: generator.next(below: 2) == 0)
          case 2: .onMainActor
          default: .lockedIncrement
          }
        tasks[index].insert(operation, at: generator.next(below: tasks[index].count + 1))
        if case .lockedIncrement = operation {
          let other = (index + 1) % tasks.count
          tasks[other].insert(.lockedIncrement, at: generator.next(below: tasks[other].count + 1))
        }
      }
    }
    self.streamPolicy = streamPolicy
    self.cancelsGroup = cancelsGroup
    self.tasks = tasks
  }

  /// Whether the program has at most `operations` operations in all, one of them a sleep.
  func isSmallAndSleeps(atMost operations: Int) -> Bool {
    let all = tasks.joined()
    return all.count <= operations && all.contains { if case .sleep = $0 { true } else { false } }
  }

  /// Runs the program and reports the actors' logs.
  func run(reporting report: AllOutcomes.Report) async {
    let cells = (0..<self.cells).map { _ in Cell() }
    let gate = Gate()
    let handles = Handles()
    let mainLog = MainActorLog()
    let counter = EffectMutex(0)
    let policies: [AsyncStream<String>.Continuation.BufferingPolicy] = [.unbounded, .bufferingNewest(1), .bufferingOldest(1)]
    let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: policies[max(0, streamPolicy - 1)])
    let work = tasks.enumerated().map { index, operations in
      { @Sendable () async -> Void in
        for (step, operation) in operations.enumerated() {
          let tag = "t\(index).\(step)"
          switch operation {
          case .append(let cell): await cells[cell].append(tag)
          case .appendAcrossSuspension(let cell): await cells[cell].appendAcrossSuspension(tag)
          case .yield: await Task.yield()
          case .sleep(let milliseconds): try? await Task.sleep(for: .milliseconds(milliseconds))
          case .waitAtGate: await gate.wait()
          case .openGate: await gate.open()
          case .logCancelled(let cell): await cells[cell].append("\(tag)=\(Task.isCancelled)")
          case .cancel(let task): handles.cancel(task)
          case .yieldToStream: continuation.yield(tag)
          case .asyncLet(let cell, let awaited):
            async let child: Void = cells[cell].append("\(tag)c=\(Task.isCancelled)")
            if awaited { await child }
          case .group(let cell, let cancelled):
            let order = await withTaskGroup(of: String.self) { group in
              group.addTask { "\(tag)a=\(Task.isCancelled)" }
              group.addTask { "\(tag)b" }
              if cancelled { group.cancelAll() }
              var order: [String] = []
              for await returned in group { order.append(returned) }
              return order.joined(separator: "+")
            }
            await cells[cell].append(order)
          case .onMainActor: await mainLog.append(tag)
          case .lockedIncrement:
            let seen = counter.withLock { $0 }
            await Task.yield()
            counter.withLock { $0 = seen + 1 }
          }
        }
      }
    }
    if asGroupChildren {
      await withTaskGroup(of: Void.self) { group in
        for body in work { group.addTask { await body() } }
        if cancelsGroup {
          await Task.yield()
          group.cancelAll()
        }
      }
    } else {
      let started = work.map { body in Task { await body() } }
      handles.set(started)
      for task in started { await task.value }
    }
    var logs: [String] = []
    for cell in cells { logs.append(await cell.log.joined(separator: ",")) }
    let onMain = await mainLog.entries
    if !onMain.isEmpty { logs.append("main " + onMain.joined(separator: ",")) }
    let count = counter.withLock { $0 }
    if count > 0 { logs.append("counter \(count)") }
    continuation.finish()
    if streamPolicy > 0 {
      var drained: [String] = []
      for await tag in stream { drained.append(tag) }
      logs.append("stream " + drained.joined(separator: ","))
    }
    report.finalState(logs.joined(separator: " | "))
  }
}

/// The program's tasks, for one to cancel another; set in the root's step that creates them, so
/// before any of them runs.
private final class Handles: Sendable {
  private let tasks = Mutex<[Task<Void, Never>]>([])

  func set(_ started: [Task<Void, Never>]) { tasks.withLock { $0 = started } }
  func cancel(_ index: Int) { tasks.withLock { $0[index] }.cancel() }
}

/// A log on the main actor.
@MainActor private final class MainActorLog: Sendable {
  private(set) var entries: [String] = []

  nonisolated init() {}

  func append(_ tag: String) { entries.append(tag) }
}

/// An actor holding a log.
private actor Cell {
  private(set) var log: [String] = []

  func append(_ tag: String) { log.append(tag) }

  func appendAcrossSuspension(_ tag: String) async {
    let seen = log.count
    await Task.yield()
    log.append("\(tag)@\(seen)")
  }
}

/// A gate that tasks wait at until it opens.
private actor Gate {
  private var isOpen = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  func wait() async {
    if isOpen { return }
    await withCheckedContinuation { waiting.append($0) }
  }

  func open() {
    isOpen = true
    for waiter in waiting { waiter.resume() }
    waiting = []
  }
}

/// A small deterministic generator, so that a program is known by its seed.
private struct SplitMix {
  var state: UInt64

  mutating func next(below bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    value ^= value >> 31
    return Int(value % UInt64(bound))
  }
}
