import EffectScheduler

extension RunOutcome {
  /// What this run's verdict rests on beyond its schedule (``ExplorationClaim/assumptions``).
  var assumptions: Set<ExplorationAssumption> {
    var assumptions: Set<ExplorationAssumption> = []
    if record.lockWatch.tookUncontrolledLocks { assumptions.insert(.uncontrolledLocksRanWhole) }
    if record.madeNoncopyableHolders { assumptions.insert(.synchronizationRanWhole) }
    if record.receivedWorkFromOutside || !record.trail.handOffs.isEmpty { assumptions.insert(.outsideWorkTookPart) }
    if record.fairYields.removedABranch { assumptions.insert(.fairYields) }
    if record.time.cutAtStep != nil { assumptions.insert(.timedWorkRanOnTime) }
    if record.plainTasksWentUnadopted { assumptions.insert(.plainTasksHoppedWithinSteps) }
    return assumptions
  }
}

extension ReductionCheck {
  /// Whether the search's claim rests on the assumption that tasks share nothing unseen: it made
  /// the assumption, and took pairs of steps as independent without seeing what they share.
  var restsOnNoUnseenSharing: Bool { assumesNoUnseenSharing && assumedPairs + actorJobPairs > 0 }
}

extension ExplorationAssumption {
  /// What every claim made in a process with `capabilities` rests on, whatever its runs did:
  /// where locks go unseen (`RuntimeCapabilities.seesLocks`), that their critical sections, if
  /// any, ran whole (``locksUnseen``).
  ///
  /// ```swift
  /// ExplorationAssumption.madeEverywhere(with: .current) // [] on 64-bit Linux
  /// ```
  public static func madeEverywhere(with capabilities: RuntimeCapabilities) -> Set<ExplorationAssumption> {
    capabilities.seesLocks ? [] : [.locksUnseen]
  }
}
