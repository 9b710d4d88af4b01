import Effects
import Testing

@Suite("withTestHandler in parallel")
struct ParallelTests {
  @Test("twenty scripts at once each see only their own program")
  func twentyAtOnce() async throws {
    let echoed = try await withThrowingTaskGroup(of: [String].self) { group in
      for run in 0..<20 {
        group.addTask {
          let output = Recorder()
          try await withTestHandler {
            echo()
          } test: { effect in
            for step in 0..<5 {
              try await effect.expect(Console.readLine, return: "\(run).\(step)")
              try await effect.expect(Console.print) { output.append($0) }
            }
            try await effect.expect(Console.readLine, return: nil)
          }
          return output.lines
        }
      }
      var all: [[String]] = []
      for try await lines in group { all.append(lines) }
      return all
    }
    #expect(echoed.count == 20)
    for lines in echoed {
      let run = try #require(lines.first?.split(separator: ".").first)
      #expect(lines == (0..<5).map { "\(run).\($0)" })
    }
    #expect(Set(echoed.compactMap(\.first)).count == 20)
  }
}
