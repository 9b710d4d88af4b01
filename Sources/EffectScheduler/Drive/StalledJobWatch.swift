import Dispatch
import Foundation
import Synchronization

// A job that blocks its thread (a `DispatchSemaphore.wait()`, a condition variable, a loop that
// polls a flag without an `await`) stops the whole run: the scheduler runs one job at a time, so
// whatever would unblock it never runs, and the exploration hangs without a word. Nothing can
// take the thread back, but a watch can say what happened: once a job has run for the run's
// `SchedulerConfiguration.blockedJobWarning` without returning, it prints which step and task it
// is, once; once it has run for the run's `SchedulerConfiguration.blockedJobLimit`, the call that
// waits for the run stops waiting and fails (StalledJobEscape.swift). The watch reads only what the
// driving thread publishes through atomics as each job begins and ends, and checks once a second
// on a timer of its own, started with the first scheduler.

/// The job a scheduler's run has under way, published for ``StalledJobWatch``.
final class RunningJobRecord: Sendable {
  /// The job's number among the jobs this record published, or 0 between jobs.
  fileprivate let serial = Atomic<UInt64>(0)
  /// How many jobs this record published; only the thread driving the run writes it.
  private let jobs = Atomic<UInt64>(0)
  fileprivate let step = Atomic<Int>(0)
  /// The number of the job's task, or of the task that scheduled its actor's job; -1 for none.
  fileprivate let task = Atomic<Int>(-1)
  /// After how many milliseconds of a job the watch warns, or -1 for never.
  fileprivate let warnAfter = Atomic<Int>(-1)
  /// After how many milliseconds of a job the watch gives the call that waits for the run its
  /// ``escape``, or -1 for never.
  fileprivate let giveUpAfter = Atomic<Int>(-1)
  /// The way out of the wait of the call whose runs this record's scheduler makes, if it has one.
  fileprivate let escape = StalledJobEscape.current

  init() { StalledJobWatch.watch(self) }

  /// Sets how long a job may run before the watch warns, and before the call that waits for the
  /// run gives up, for the runs to come.
  func watch(warningAfter warning: Duration?, givingUpAfter limit: Duration?) {
    warnAfter.store(Self.milliseconds(warning), ordering: .relaxed)
    giveUpAfter.store(Self.milliseconds(limit), ordering: .relaxed)
  }

  /// `duration` in whole milliseconds, clamped, so that no setting, however large or small,
  /// traps; -1 for none.
  private static func milliseconds(_ duration: Duration?) -> Int {
    duration.map { Int(min(max($0 / .milliseconds(1), 0), 1e15)) } ?? -1
  }

  /// Publishes that the job of step `step`, of `task`'s, begins.
  func begin(step: Int, task: TaskID?) {
    self.step.store(step, ordering: .relaxed)
    self.task.store(task?.rawValue ?? -1, ordering: .relaxed)
    let number = jobs.load(ordering: .relaxed) &+ 1
    jobs.store(number, ordering: .relaxed)
    serial.store(number, ordering: .releasing)
  }

  /// Publishes that the job under way returned.
  func end() { serial.store(0, ordering: .relaxed) }

  /// Takes this record off the watch, for a scheduler that will run no more jobs.
  func stopBeingWatched() { StalledJobWatch.unwatch(self) }
}

/// Prints a warning for each job that has run too long without returning; see above.
enum StalledJobWatch {
  private struct Watched: Sendable {
    weak var record: RunningJobRecord?
    var serial: UInt64 = 0
    var since = ContinuousClock.now
    var reported = false
    var gaveUp = false
  }

  private static let watched = Mutex<[Watched]>([])
  nonisolated(unsafe) private static let timer: DispatchSourceTimer = {
    let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
    timer.schedule(deadline: .now() + 1, repeating: 1)
    timer.setEventHandler { check() }
    timer.resume()
    return timer
  }()

  /// Watches the jobs `record` publishes, for as long as it lives or until it is taken off.
  ///
  /// The list holds the records of the schedulers that may still run a job: a scheduler whose run
  /// was cut short lives on, held by the tasks the run left suspended for good, but is retired and
  /// taken off (``RunningJobRecord/stopBeingWatched()``): kept on, they would make the list grow
  /// with every such run, and each new scheduler's look through it slower.
  fileprivate static func watch(_ record: RunningJobRecord) {
    _ = timer
    watched.withLock {
      $0.removeAll { $0.record == nil }
      $0.append(Watched(record: record))
    }
  }

  /// How many records the watch holds: those of schedulers that may still run a job, and of
  /// freed ones not yet swept out.
  static var watchedCount: Int { watched.withLock { $0.count } }

  /// Stops watching `record`.
  fileprivate static func unwatch(_ record: RunningJobRecord) {
    watched.withLock { $0.removeAll { $0.record == nil || $0.record === record } }
  }

  /// Looks at each run's job under way, reports those that have not returned for long, and gives
  /// up on those that have not returned for longer.
  private static func check() {
    let now = ContinuousClock.now
    var stalled: [(step: Int, task: Int, after: Int)] = []
    var abandoned: [(escape: StalledJobEscape, step: Int, task: Int, after: Int)] = []
    watched.withLock { all in
      for index in all.indices {
        guard let record = all[index].record else { continue }
        let serial = record.serial.load(ordering: .acquiring)
        if serial != all[index].serial {
          all[index] = Watched(record: record, serial: serial, since: now)
          continue
        }
        guard serial != 0 else { continue }
        let (step, task) = (record.step.load(ordering: .relaxed), record.task.load(ordering: .relaxed))
        let warning = record.warnAfter.load(ordering: .relaxed)
        if warning >= 0, !all[index].reported, now - all[index].since >= .milliseconds(warning) {
          all[index].reported = true
          stalled.append((step, task, warning))
        }
        let limit = record.giveUpAfter.load(ordering: .relaxed)
        if limit >= 0, let escape = record.escape, !all[index].gaveUp, now - all[index].since >= .milliseconds(limit) {
          all[index].gaveUp = true
          abandoned.append((escape, step, task, limit))
        }
      }
    }
    for (step, task, after) in stalled {
      FileHandle.standardError.write(Data(message(step: step, task: task, after: .milliseconds(after)).utf8))
    }
    for (escape, step, task, after) in abandoned {
      escape.giveUp(because: failure(step: step, task: task, after: .milliseconds(after)))
    }
  }

  /// What the call that waits for a run says when it gives up on the job of step `step`, of task
  /// number `task` (-1 for none), that has run for `after`.
  static func failure(step: Int, task: Int, after: Duration) -> String {
    "step \(step) of a run (\(job(of: task))) did not return within \(after), so the call gave up waiting for it. \(whyARunStops) "
      + "The job's thread is left as it is, blocked or spinning, until the job returns or the process ends. \(whatToDo); "
      + "SchedulerConfiguration.blockedJobLimit sets how long a job may run."
  }

  /// The warning for the job of step `step`, of task number `task` (-1 for none), that has run
  /// for `after`.
  static func message(step: Int, task: Int, after: Duration) -> String {
    "\nEffectScheduler: step \(step) of a run (\(job(of: task))) has not returned for \(after) or more. \(whyARunStops) \(whatToDo).\n\n"
  }

  /// `a job of task #2`, or `a job` for task number -1.
  private static func job(of task: Int) -> String { task >= 0 ? "a job of task #\(task)" : "a job" }

  /// Why such a job stops its run, as the warning and the failure say it.
  private static let whyARunStops =
    "The scheduler runs one job at a time, so a job that blocks its thread (a DispatchSemaphore.wait(), a condition variable, a lock "
    + "another thread holds, a loop that polls a flag without an await) stops the whole run: nothing that could unblock it runs."
  /// What to do instead.
  private static let whatToDo = "Wait with an await instead (a continuation, an AsyncStream, EffectLock or EffectMutex)"
}
