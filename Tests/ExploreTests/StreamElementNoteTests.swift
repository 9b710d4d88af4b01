import EffectScheduler
import Effects
import Explore
import ExploreTesting
import Testing

@Suite("An element a stream made with .effect delivers, in the trace")
struct StreamElementNoteTests {
  static let quiet = ExploreConfiguration(progressInterval: nil)

  @Test("an explored run notes it in the consumer's cell, at the step that received it")
  func inTheConsumersCell() async throws {
    let failure = try await requireFailure(ExplorationFailure.self) {
      try await explore(.exhaustive, configuration: Self.quiet) {
        let results = AsyncStream.effect("results", of: String.self) { continuation in
          Task.effect(name: "search") {
            continuation.yield("3 hits")
            continuation.finish()
          }
        }
        var shown: [String] = []
        for await result in results { shown.append(result) }
        #expect(shown.isEmpty, "fails under every schedule, to see one")
      }
    }
    let trace = try #require(failure.trace)
    #expect(trace.notes.map(\.text) == ["results ← \"3 hits\""])
    #expect(trace.notes.map(\.task) == [TaskID(0)])
    let row = try #require(trace.table.split(separator: "\n").first { $0.contains("results ←") })
    // The cells: step, #0 root, #1 search.
    let cells = row.split(separator: "|", omittingEmptySubsequences: false)
    #expect(cells[1].contains("results ← \"3 hits\""), "\(trace.table)")
  }

  @Test("a throwing stream's elements are noted too, and its error still reaches the consumer")
  func throwingStream() async throws {
    struct Lost: Error {}
    let execution = try await DeterministicScheduler.run { () -> [Int] in
      let ticks = AsyncThrowingStream.effect("ticks", of: Int.self) { continuation in
        continuation.yield(1)
        continuation.yield(2)
        continuation.finish(throwing: Lost())
      }
      var seen: [Int] = []
      do {
        for try await tick in ticks { seen.append(tick) }
      } catch {
        seen.append(error is Lost ? -1 : -2)
      }
      return seen
    }
    #expect(execution.value == [1, 2, -1])
    #expect(execution.trace.notes.map(\.text) == ["ticks ← 1", "ticks ← 2"])
    #expect(execution.trace.tasks.count == 1)
  }
}
