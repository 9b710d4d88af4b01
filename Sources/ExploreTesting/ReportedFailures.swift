import Effects
import Explore
import Testing

// A failure that `explore` or `withTestHandler` recorded as an issue where it happened is thrown
// too. When the test lets it escape, Swift Testing records it again at the `@Test`; that second
// issue points at the first instead of repeating the report.

extension ExplorationFailure: CustomTestStringConvertible {
  /// The report, or, once it is recorded as an issue at the `explore` call, a pointer to it.
  public var testDescription: String {
    isRecordedAsIssue ? "explore found a failing schedule (\(location)); its report is recorded there" : description
  }
}

extension EffectTestFailure: CustomTestStringConvertible {
  /// The failure, or, once it is recorded as an issue at its script line, a pointer to it.
  public var testDescription: String {
    isRecordedAsIssue ? "the test script failed at \(fileID):\(line):\(column); the failure is recorded there" : description
  }
}
