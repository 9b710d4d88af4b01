extension SchedulerConfiguration {
  /// The configuration under which `schedule` replays: this one, pausing between critical
  /// sections where the schedule was made so (``Schedule/splitsCriticalSections``), since its
  /// steps are those the pauses cut.
  package func replaying(_ schedule: Schedule) -> SchedulerConfiguration {
    guard schedule.splitsCriticalSections, !pausesBetweenCriticalSections else { return self }
    var configuration = self
    configuration.pausesBetweenCriticalSections = true
    return configuration
  }
}
