/// Makes the same choices as a recorded ``Schedule``, and fails loudly when the program no longer
/// fits it.
///
/// ```swift
/// let first = try await DeterministicScheduler.run(strategy: .random(seed: 7)) { … }
/// let again = try await DeterministicScheduler.run(strategy: .replay(first.schedule)) { … }
/// again.trace == first.trace // true
/// ```
public struct ReplayStrategy: SchedulingStrategy, Sendable {
  /// The schedule being replayed.
  public let schedule: Schedule

  /// Creates a strategy that replays `schedule`.
  public init(_ schedule: Schedule) { self.schedule = schedule }

  /// The position of the job the schedule names for `step`.
  ///
  /// - Throws: ``ReplayDivergence`` when the schedule has no step left or names a job that is not
  ///   ready.
  public mutating func nextJob(among ready: [ReadyJob], step: Int) throws -> Int {
    guard step < schedule.choices.count else {
      throw ReplayDivergence(step: step, expected: nil, ready: ready)
    }
    let choice = schedule.choices[step]
    guard let position = choice.position(in: ready) else {
      throw ReplayDivergence(step: step, expected: choice, ready: ready)
    }
    return position
  }

  /// - Throws: ``ReplayDivergence`` when the run ended before the schedule did.
  public mutating func runDidFinish(steps: Int) throws {
    if steps < schedule.choices.count {
      throw ReplayDivergence(step: steps, expected: schedule.choices[steps], ready: [])
    }
  }
}

extension SchedulingStrategy where Self == ReplayStrategy {
  /// Replays a recorded schedule.
  public static func replay(_ schedule: Schedule) -> ReplayStrategy { ReplayStrategy(schedule) }
}

/// A replayed run stopped matching its schedule: the program behaved differently this time.
///
/// That happens when something outside the scheduler's control (real time, randomness, threads it
/// does not own, state left over from another run) changes what the program does.
public struct ReplayDivergence: Error, Hashable, Sendable, CustomStringConvertible {
  /// The step at which the run and the schedule parted.
  public var step: Int
  /// What the schedule says for that step, or `nil` when it had no step left.
  public var expected: ScheduleChoice?
  /// The jobs that were ready at that step; empty when the run had already finished.
  public var ready: [ReadyJob]
  /// The jobs an earlier run with the same choices had ready at that step, when the divergence
  /// is that they differ, though the expected one may still be among them.
  public var readyBefore: [ReadyJob]?

  /// Creates a divergence report.
  public init(step: Int, expected: ScheduleChoice?, ready: [ReadyJob], readyBefore: [ReadyJob]? = nil) {
    self.step = step
    self.expected = expected
    self.ready = ready
    self.readyBefore = readyBefore
  }

  /// A sentence saying where and how the run diverged.
  public var description: String {
    let readyList = ready.map(\.description).joined(separator: ", ")
    if let readyBefore, let expected {
      let before = readyBefore.map(\.description).joined(separator: ", ")
      return "the replay diverged at step \(step): the same choices led to other ready jobs than in an earlier run (then \(before); now \(readyList)), where the schedule picks \(expected.label)"
    }
    switch (expected, ready.isEmpty) {
    case (nil, _):
      return "the replay diverged at step \(step): the schedule has ended, but the program still has jobs to run (ready: \(readyList))"
    case (let choice?, true):
      return "the replay diverged at step \(step): the program finished, but the schedule expected \(choice.label) to run"
    case (let choice?, false):
      return "the replay diverged at step \(step): the schedule expected \(choice.label) to run, but the ready jobs were \(readyList)"
    }
  }
}
