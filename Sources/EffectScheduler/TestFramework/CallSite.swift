/// A place in a test's source, such as a script line or an `explore` call: where a failure is
/// reported, and where the issue that records it points.
package struct CallSite: Hashable, Sendable {
  package var fileID: String
  package var filePath: String
  package var line: Int
  package var column: Int

  package init(fileID: String, filePath: String, line: Int, column: Int) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }
}
