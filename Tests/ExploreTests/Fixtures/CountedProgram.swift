import EffectScheduler

/// A generated program of tasks that yield, start tasks and wait for them, with a count model: how
/// many schedules (orders of its tasks' steps) it has, worked out from its structure alone, without
/// running it. The exhaustive search must run exactly that many.
///
/// A step is the code of one task between two suspension points. A task suspends at
/// `Task.yield()` (and is ready again at once), and where it waits for a task that has not
/// completed: `await task.value`, an `async let`'s value, a task group's end. A wait for a task
/// that has completed does not suspend. A task group's implicit wait takes its children's results
/// one at a time, suspending only while none is left to take; a discarding group's waits once,
/// for all of them.
indirect enum CountedStatement: Hashable, Sendable, CustomStringConvertible {
  case yield
  /// Starts a plain `Task`, runs `then`, and awaits the task's value.
  case task([CountedStatement], then: [CountedStatement])
  /// Starts an `async let` child, runs `then`, and awaits its value.
  case asyncLet([CountedStatement], then: [CountedStatement])
  /// A task group (discarding or not) whose children run the bodies.
  case group([[CountedStatement]], discarding: Bool)

  var description: String {
    func list(_ body: [CountedStatement]) -> String { "[" + body.map(\.description).joined(separator: " ") + "]" }
    return switch self {
    case .yield: "y"
    case .task(let body, let then): "task\(list(body))then\(list(then))"
    case .asyncLet(let body, let then): "let\(list(body))then\(list(then))"
    case .group(let bodies, let discarding): (discarding ? "dgroup" : "group") + "(" + bodies.map(list).joined(separator: ",") + ")"
    }
  }
}

/// A program of ``CountedStatement``s, run as the root task's body.
struct CountedProgram: Sendable, CustomStringConvertible {
  let root: [CountedStatement]

  var description: String { root.map(\.description).joined(separator: " ") }

  /// Runs the statements.
  @Sendable static func run(_ statements: [CountedStatement]) async {
    for statement in statements {
      switch statement {
      case .yield:
        await Task.yield()
      case .task(let body, let then):
        let task = Task { await run(body) }
        await run(then)
        await task.value
      case .asyncLet(let body, let then):
        async let child: Void = run(body)
        await run(then)
        await child
      case .group(let bodies, discarding: true):
        await withDiscardingTaskGroup { group in
          for body in bodies { group.addTask { await run(body) } }
        }
      case .group(let bodies, discarding: false):
        await withTaskGroup(of: Void.self) { group in
          for body in bodies { group.addTask { await run(body) } }
        }
      }
    }
  }

  // MARK: The count model

  /// One instruction of a task, its structured statements flattened.
  private enum Instruction: Hashable {
    case yield
    case spawn(Int)
    case join(Int)
    /// Waits for the children, taking their results one at a time unless `discarding`.
    case waitGroup([Int], discarding: Bool)
  }

  /// The tasks' instructions, the root's first.
  private var instructions: [[Instruction]] {
    var tasks: [[Instruction]] = [[]]
    func flatten(_ statements: [CountedStatement], into task: Int) {
      for statement in statements {
        switch statement {
        case .yield:
          tasks[task].append(.yield)
        case .task(let body, let then), .asyncLet(let body, let then):
          let child = tasks.count
          tasks.append([])
          flatten(body, into: child)
          tasks[task].append(.spawn(child))
          flatten(then, into: task)
          tasks[task].append(.join(child))
        case .group(let bodies, let discarding):
          var children: [Int] = []
          for body in bodies {
            let child = tasks.count
            tasks.append([])
            flatten(body, into: child)
            tasks[task].append(.spawn(child))
            children.append(child)
          }
          tasks[task].append(.waitGroup(children, discarding: discarding))
        }
      }
    }
    flatten(root, into: 0)
    return tasks
  }

  /// A task's state in the model.
  private struct TaskState: Hashable {
    var pc = 0
    var started = false
    var ready = false
    var done = false
    /// The children's results a group wait has taken.
    var taken: Set<Int> = []
  }

  /// How many schedules the program has, or `nil` past `limit`.
  func scheduleCount(limit: Int) -> Int? {
    let program = instructions
    var memo: [[TaskState]: Int] = [:]
    var initial = Array(repeating: TaskState(), count: program.count)
    initial[0].started = true
    initial[0].ready = true

    /// Runs task `index` from where it is to its next suspension, in `state`.
    func step(_ index: Int, in state: inout [TaskState]) {
      state[index].ready = false
      let code = program[index]
      while state[index].pc < code.count {
        switch code[state[index].pc] {
        case .yield:
          state[index].pc += 1
          state[index].ready = true
          return
        case .spawn(let child):
          state[child].started = true
          state[child].ready = true
          state[index].pc += 1
        case .join(let child):
          guard state[child].done else { return }
          state[index].pc += 1
        case .waitGroup(let children, let discarding):
          if discarding {
            guard children.allSatisfy({ state[$0].done }) else { return }
          } else {
            for child in children where state[child].done { state[index].taken.insert(child) }
            guard state[index].taken.count == children.count else { return }
            state[index].taken = []
          }
          state[index].pc += 1
        }
      }
      state[index].done = true
      // Wake whoever waits on it.
      for waiter in state.indices where state[waiter].started && !state[waiter].done && !state[waiter].ready && waiter != index {
        guard state[waiter].pc < program[waiter].count else { continue }
        switch program[waiter][state[waiter].pc] {
        case .join(let child) where child == index:
          state[waiter].ready = true
        case .waitGroup(let children, let discarding) where children.contains(index):
          if discarding {
            if children.allSatisfy({ state[$0].done }) { state[waiter].ready = true }
          } else {
            // The completing child's result goes to the waiting task, which is woken.
            state[waiter].taken.insert(index)
            state[waiter].ready = true
          }
        default: break
        }
      }
    }

    var exceeded = false
    func count(_ state: [TaskState]) -> Int {
      if exceeded { return 0 }
      if let known = memo[state] { return known }
      var total = 0
      var anyReady = false
      for index in state.indices where state[index].ready {
        anyReady = true
        var next = state
        step(index, in: &next)
        total += count(next)
        if total > limit {
          exceeded = true
          return 0
        }
      }
      let result = anyReady ? total : 1
      memo[state] = result
      return result
    }
    let total = count(initial)
    return exceeded ? nil : total
  }

  // MARK: Generation

  /// A program generated from `seed`: up to `depth` levels of nested tasks, each statement of
  /// yields at most `yields` long (neighbouring statements make longer runs).
  static func generated(seed: UInt64, depth: Int = 2, yields: Int = 4) -> CountedProgram {
    var random = SeededGenerator(seed: seed)
    func body(depth: Int, statements: Int) -> [CountedStatement] {
      var result: [CountedStatement] = []
      for _ in 0..<statements {
        let kind = depth > 0 ? random.below(6) : 0
        switch kind {
        case 0, 1:
          result.append(contentsOf: repeatElement(.yield, count: 1 + random.below(yields)))
        case 2:
          result.append(.task(body(depth: depth - 1, statements: 1 + random.below(2)), then: body(depth: 0, statements: random.below(2))))
        case 3:
          result.append(.asyncLet(body(depth: depth - 1, statements: 1 + random.below(2)), then: body(depth: 0, statements: random.below(2))))
        default:
          let children = (0..<(1 + random.below(2))).map { _ in body(depth: depth - 1, statements: random.below(2) + 1) }
          result.append(.group(children, discarding: random.below(2) == 0))
        }
      }
      return result
    }
    return CountedProgram(root: body(depth: depth, statements: 1 + random.below(3)))
  }
}

