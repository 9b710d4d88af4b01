/// A line of a test script, for failure messages.
struct CallSite: Hashable, Sendable {
  var fileID: String
  var line: Int
  var column: Int
}
