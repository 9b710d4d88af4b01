import Testing

/// A failure's report, recorded as an issue in the form of a caught error: Swift Testing then
/// shows the report as the issue itself, `Caught error: ` and the report, so the first line
/// is the report's, which says what went wrong. An issue made of a comment would show
/// "Issue recorded" first, and the report below it.
struct ReportedFailure: Error, CustomTestStringConvertible {
  /// The report, its summary first.
  let report: String

  var testDescription: String { report }
}
