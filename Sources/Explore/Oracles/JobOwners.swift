import EffectScheduler

/// The task whose work each ready job runs, kept from one step to the next so that PCT can give a
/// default actor's job the priority of that task.
///
/// A task's job runs its own task. An actor's job runs the task that scheduled it
/// (``ReadyJob/scheduledBy``), typically the task that stepped onto the actor. An actor's job
/// scheduled while no task was running, which happens when an actor's job or a `Task.yield()`
/// between steps schedules it (an actor going on with the work still queued on it, a task moving
/// on from one actor to another), runs the same task as the job picked at the step before: it
/// carries on that job's work. An actor's job handed over from outside the scheduler's control
/// runs no task known here.
///
/// This relies on the scheduler listing ready jobs in the order they became ready: after a step,
/// the ready jobs are those of the step before without the one picked, then the new ones. When the
/// list does not look like that, every job falls back to what it says itself.
struct JobOwners {
  /// The task each ready job runs, by position, or `nil` where none is known.
  private var owners: [TaskID?] = []
  /// The position picked at the step before, and the task its job ran.
  private var picked: (position: Int, owner: TaskID?)?

  /// The task the job at `position` of the latest ready jobs runs, if known.
  subscript(position: Int) -> TaskID? { owners[position] }

  /// Takes in the ready jobs of a new step.
  mutating func update(_ ready: [ReadyJob]) {
    var carriedOn: TaskID?
    if let picked, owners.indices.contains(picked.position) {
      owners.remove(at: picked.position)
      carriedOn = picked.owner
    }
    picked = nil
    if owners.count > ready.count || !zip(owners, ready).allSatisfy(Self.fits) {
      owners.removeAll(keepingCapacity: true)
      carriedOn = nil
    }
    for job in ready[owners.count...] {
      owners.append(job.task ?? job.scheduledBy ?? (job.arrivedFromOutside ? nil : carriedOn))
    }
  }

  /// Notes the position picked among the latest ready jobs.
  mutating func picked(_ position: Int) {
    picked = (position, owners[position])
  }

  /// Whether `owner`, kept from an earlier step, can be the task `job` runs.
  private static func fits(_ owner: TaskID?, _ job: ReadyJob) -> Bool {
    if let task = job.task { return owner == task }
    if let scheduledBy = job.scheduledBy { return owner == scheduledBy }
    return true
  }
}
