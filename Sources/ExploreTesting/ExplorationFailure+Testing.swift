import Explore
import Testing

extension ExplorationFailure: CustomTestStringConvertible {
  /// What Swift Testing shows for the failure when a test throws it: where `explore` recorded the
  /// report as a warning at its call, the `headline` alone and where the report is, so that the
  /// report appears once in the output; otherwise the report.
  public var testDescription: String {
    reportRecorded ? "\(headline) (the report is in the warning at \(location))" : description
  }
}

extension LinearizabilityFailure: CustomTestStringConvertible {
  /// What Swift Testing shows for the failure when a test throws it: where `checkLinearizability`
  /// recorded the report as a warning at its call, the `headline` alone and where the report is,
  /// so that the report appears once in the output; otherwise the report.
  public var testDescription: String {
    reportRecorded ? "\(headline) (the report is in the warning at \(location))" : description
  }
}
