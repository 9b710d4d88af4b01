import EffectScheduler
@testable import Explore
import Testing

/// A made-up program run as the scheduler runs one: jobs are added at the end of the ready list
/// and the job picked is taken from it, so the scheduler can tell the search how many jobs it kept
/// from the step before. Which jobs a step adds, and whether the scheduler says what it kept (it
/// does not at some steps, as at a fair one), follow from the choices made so far.
private struct QueueProgram {
  let seed: UInt64
  /// Whether a run with these choices so far gets different jobs than before at its second step.
  var diverges: ([Int]) -> Bool = { _ in false }

  /// The choices of every run `search` makes, told what was kept when `tellsKept`.
  func runs(_ search: inout DepthFirstSearch, tellsKept: Bool) throws -> [[Int]] {
    var runs: [[Int]] = []
    while search.beginRun() { runs.append(try run(&search, tellsKept: tellsKept)) }
    return runs
  }

  func run(_ search: inout DepthFirstSearch, tellsKept: Bool) throws -> [Int] {
    var ready = [ReadyJob(task: TaskID(1))]
    var nextTask = 2
    var choices: [Int] = []
    var kept: Int?
    while !ready.isEmpty, choices.count < 7 {
      var generator = SeededGenerator(seed: choices.reduce(seed) { $0 &* 31 &+ UInt64($1 + 1) })
      let says = generator.below(5) != 0
      let told = tellsKept && says ? kept : nil
      let position = try search.nextJob(among: ready, step: choices.count, kept: told)
      choices.append(position)
      ready.remove(at: position)
      kept = ready.count
      for _ in 0..<generator.below(3) where ready.count < 4 {
        ready.append(ReadyJob(task: TaskID(nextTask)))
        nextTask += 1
      }
      if choices.count == 1 { ready.append(ReadyJob(task: TaskID(diverges(choices) ? 1000 : 999))) }
    }
    return choices
  }
}

@Suite("The depth-first search told which ready jobs the scheduler kept")
struct KeptReadyJobsTests {
  @Test("makes the runs it makes when not told, in the same order", arguments: 1...40)
  func sameRuns(seed: UInt64) throws {
    let program = QueueProgram(seed: seed)
    var told = DepthFirstSearch()
    var untold = DepthFirstSearch()
    let runs = try program.runs(&told, tellsKept: true)
    let untoldRuns = try program.runs(&untold, tellsKept: false)
    let differ = (0..<min(runs.count, untoldRuns.count)).first { runs[$0] != untoldRuns[$0] } ?? min(runs.count, untoldRuns.count)
    #expect(runs == untoldRuns, "first differ at run \(differ): \(runs[max(0, differ - 1)..<min(runs.count, differ + 2)]) \(untoldRuns[max(0, differ - 1)..<min(untoldRuns.count, differ + 2)]), counts \(runs.count) \(untoldRuns.count)")
    #expect(Set(runs).count == runs.count)
  }

  @Test("still finds a replayed step whose new jobs differ")
  func divergence() throws {
    var search = DepthFirstSearch()
    var program = QueueProgram(seed: 1)
    var runs: [[Int]] = []
    do {
      while search.beginRun() {
        // From the second run on, a job added at the second step is another.
        if runs.count == 1 { program.diverges = { _ in true } }
        runs.append(try program.run(&search, tellsKept: true))
      }
      Issue.record("no divergence in \(runs)")
    } catch let divergence as ReplayDivergence {
      #expect(divergence.step >= 1)
      #expect(runs.count == 1)
    }
  }
}
